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

/**
 * Steps that call out: channel steps through a vendor (everything but in-app) and HTTP request steps.
 * Their time is the remote end's, so they run in the steps queue, never inside a fan-out job where a
 * slow endpoint would hold every trigger behind it.
 */
export function callsOut(type: StepType | string): boolean {
  return (isChannelStep(type) && type !== 'in_app') || type === 'http_request';
}
