import { Channel, isChannel } from '@app/kernel';

/** Novu's StepTypeEnum: the channel steps plus the action steps. */
export const STEP_TYPES = ['in_app', 'email', 'sms', 'chat', 'push', 'digest', 'trigger', 'delay', 'throttle', 'custom', 'http_request'] as const;
export type StepType = (typeof STEP_TYPES)[number];

export function isStepType(value: unknown): value is StepType {
  return typeof value === 'string' && (STEP_TYPES as readonly string[]).includes(value);
}

export function isChannelStep(type: StepType | string): type is Channel {
  return isChannel(type);
}

/** Action steps halt the rest of the subscriber's workflow when they fail (Novu's isActionStepType). */
export function isActionStep(type: StepType | string): boolean {
  return type === 'digest' || type === 'delay' || type === 'throttle' || type === 'custom' || type === 'http_request';
}

/** Steps that wait before running (their job goes `delayed`). */
export function isDeferredStep(type: StepType | string): boolean {
  return type === 'digest' || type === 'delay' || type === 'throttle';
}

/** Channel steps that go through a vendor: every channel but in-app. */
export function callsVendor(type: StepType | string): boolean {
  return isChannelStep(type) && type !== 'in_app';
}

/**
 * Steps that call out: channel steps through a vendor and HTTP request steps. Their time is the remote
 * end's, so they run in the steps queue, not inside a fan-out job where a slow endpoint would hold the
 * triggers behind it; but for a vendor's step first in the chains of a fan-out batch of several
 * subscribers, whose calls go out together (NotificationBatches), each bounded by its timeout.
 */
export function callsOut(type: StepType | string): boolean {
  return callsVendor(type) || type === 'http_request';
}
