import { deterministicId, readPath } from '@app/kernel';
import { assertWithinDeferLimit, readPayloadPath } from './delay';
import { InvalidThrottleError } from './errors';
import { TIME_UNITS, durationMs, isTimeUnit } from './step-metadata';

/** A throttle step's metadata, as the workflow stores it (Novu's throttle controls). */
export interface ThrottleSettings {
  type?: 'fixed' | 'dynamic' | string;
  amount?: number;
  unit?: string;
  /** dynamic: `payload.<path>` to an ISO-8601 date-time the window ends at, or an `{amount, unit}`. */
  dynamicKey?: string;
  threshold?: number;
  /** A payload path (`payload.projectId` or `projectId`): runs are counted apart per value. */
  throttleKey?: string;
}

/** How long a window lasts once a run opens it: `ms` from its opening, or until a given time. */
export type ThrottleWindowLength = { ms: number } | { until: Date };

/** Runs admitted per window: Novu's default is 1. */
export function throttleThreshold(settings: ThrottleSettings): number {
  const threshold = settings.threshold;
  return typeof threshold === 'number' && Number.isFinite(threshold) && threshold >= 1 ? Math.floor(threshold) : 1;
}

/**
 * The window a run asks into, read when the step runs: a fixed `amount unit`, or the payload value
 * at `dynamicKey`. Undefined when a dynamic window's value is missing or of no known shape (as Novu,
 * the run then goes on unthrottled). A dynamic window that ends at or before `now`, or lasts beyond
 * the 180-day defer limit, and a fixed window without a valid length, throw.
 */
export function throttleWindowLength(
  settings: ThrottleSettings,
  payload: Record<string, unknown> | undefined | null,
  now: Date,
): ThrottleWindowLength | undefined {
  if ((settings.type ?? 'fixed') === 'fixed') {
    const ms = durationMs(settings.amount, settings.unit);
    if (!ms) {
      throw new InvalidThrottleError('invalid_throttle_configuration', 'A fixed throttle window needs a positive amount and a unit', {
        amount: settings.amount,
        unit: settings.unit,
      });
    }
    return { ms };
  }
  const key = settings.dynamicKey;
  if (!key) throw new InvalidThrottleError('invalid_throttle_configuration', 'A dynamic throttle window needs dynamicKey');
  const value = readPath({ payload: payload ?? {} }, key) ?? readPayloadPath(payload ?? {}, key);
  let length: ThrottleWindowLength | undefined;
  if (typeof value === 'string' && ISO_DATE_TIME.test(value)) {
    const until = Date.parse(/(Z|[+-]\d{2}:\d{2})$/i.test(value) ? value : `${value}Z`);
    if (!Number.isNaN(until)) length = { until: new Date(until) };
  } else if (value && typeof value === 'object' && !Array.isArray(value) && 'amount' in value && 'unit' in value) {
    const { amount, unit } = value;
    const ms = isTimeUnit(unit) ? durationMs(amount, unit) : undefined;
    if (ms !== undefined) length = { ms };
  }
  if (!length) return undefined;
  const ms = 'ms' in length ? length.ms : length.until.getTime() - now.getTime();
  if (ms <= 0) {
    throw new InvalidThrottleError('throttle_window_in_past', `Throttle window in past: the value at '${key}' ends the window at or before now`, {
      dynamicKey: key,
    });
  }
  assertWithinDeferLimit(ms);
  return length;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/i;

/** The shapes a dynamic window's value may take, for the detail of a run that could not read one. */
export const DYNAMIC_THROTTLE_WINDOW_SHAPES = `an ISO-8601 date-time or {amount, unit} with unit one of ${TIME_UNITS.join(', ')}`;

/** When a window opened at `openedAt` ends. */
export function throttleWindowEnd(length: ThrottleWindowLength, openedAt: Date): Date {
  return 'ms' in length ? new Date(openedAt.getTime() + length.ms) : length.until;
}

/** What one throttle counts runs by: a subscriber's runs of one workflow step, and the group value when there is a throttleKey. */
export interface ThrottleScope {
  workflowId: string;
  stepId: string;
  /** The subscriber's internal id. */
  subscriberId: string;
}

/**
 * The key of a throttle's window. With a throttleKey, runs whose payloads hold different values at
 * it are counted apart (runs without a value share one window); the value goes in hashed, so a
 * large one keeps the key short. JSON keeps the parts apart whatever characters they contain.
 */
export function throttleWindowKey(scope: ThrottleScope, throttleKey: string | undefined, payload: Record<string, unknown> | undefined | null): string {
  const parts = [scope.workflowId, scope.stepId, scope.subscriberId];
  if (throttleKey) parts.push(throttleKey, deterministicId(JSON.stringify(throttleGroupValue(throttleKey, payload) ?? null)));
  return JSON.stringify(parts);
}

/** The payload's value at a throttleKey (`payload.projectId` or `projectId`). */
export function throttleGroupValue(throttleKey: string, payload: Record<string, unknown> | undefined | null): unknown {
  return readPath({ payload: payload ?? {} }, throttleKey) ?? readPayloadPath(payload ?? {}, throttleKey);
}
