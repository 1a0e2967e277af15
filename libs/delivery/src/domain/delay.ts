import { readPath } from '@app/kernel';
import { InvalidDelayError, DeferDurationExceededError } from './errors';
import { DelayMetadata, MAX_DEFER_DURATION_MS, TIME_UNITS, TimingOverrides, durationMs, isTimeUnit } from './step-metadata';
import { nextCronOccurrence } from './timed-schedule';

/** `overrides.delay = {amount, unit}` replaces a regular wait (Novu's `isValidDelayOverride`). */
export function delayOverrideMs(overrides: TimingOverrides | undefined | null): number | undefined {
  const delay = overrides?.delay as { amount?: unknown; unit?: unknown } | undefined;
  if (!delay || typeof delay !== 'object') return undefined;
  return durationMs(delay.amount, delay.unit);
}

/** Reads a payload path, accepting both `sendAt` and `payload.sendAt`. */
export function readPayloadPath(payload: unknown, path: string): unknown {
  const direct = readPath(payload, path);
  if (direct !== undefined) return direct;
  return path.startsWith('payload.') ? readPath(payload, path.slice('payload.'.length)) : undefined;
}

function parseInstant(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/i;

/** An ISO-8601 date-time (a zone-less one read as UTC, so every process reads it alike); undefined for anything else. */
function isoDateTimeMs(value: string): number | undefined {
  if (!ISO_DATE_TIME.test(value)) return undefined;
  const hasZone = /(Z|[+-]\d{2}:\d{2})$/i.test(value);
  const ms = Date.parse(hasZone ? value : `${value}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Novu's dynamic delay: the value at `dynamicKey` (`payload.sendAt`) is, when the step runs, an ISO-8601
 * date-time to wait for or an `{amount, unit}` to wait. A missing value, another shape, a bad amount or
 * unit, a past date or no wait at all is an InvalidDelayError, whose message says which (the job fails).
 */
function dynamicDelayMs(key: string | undefined, payload: Record<string, unknown> | undefined | null, now: Date): number {
  if (!key) throw new InvalidDelayError('invalid_delay_configuration', 'Dynamic delay key not found');
  const details = { dynamicKey: key };
  const value = readPath({ payload: payload ?? {} }, key) ?? readPayloadPath(payload ?? {}, key);
  if (value === undefined || value === null || value === '') {
    throw new InvalidDelayError('invalid_delay_value', `Dynamic delay key '${key}' not found in payload`, details);
  }
  let delay: number;
  const at = typeof value === 'string' ? isoDateTimeMs(value) : undefined;
  if (at !== undefined) {
    delay = at - now.getTime();
    if (delay < 0) throw new InvalidDelayError('delay_date_not_in_future', `Dynamic delay timestamp '${String(value)}' must be a future date`, details);
  } else if (typeof value === 'object' && !Array.isArray(value) && 'amount' in value && 'unit' in value) {
    const { amount, unit } = value;
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) {
      throw new InvalidDelayError(
        'invalid_delay_value',
        `Invalid amount '${String(amount)}' in the dynamic delay at '${key}': a number of at least 0 is expected`,
        details,
      );
    }
    if (!isTimeUnit(unit)) {
      throw new InvalidDelayError(
        'invalid_delay_value',
        `Invalid time unit '${String(unit)}' in the dynamic delay at '${key}': one of ${TIME_UNITS.join(', ')} is expected`,
        details,
      );
    }
    delay = durationMs(amount, unit) ?? 0;
  } else {
    throw new InvalidDelayError(
      'invalid_delay_value',
      `Dynamic delay value at '${key}' is not a valid format: an ISO-8601 date-time or {amount, unit} is expected`,
      details,
    );
  }
  // As Novu: a dynamic delay that gives no wait at all is an error, not an immediate send.
  if (delay <= 0) throw new InvalidDelayError('delay_date_not_in_future', `Dynamic delay must be in the future: the value at '${key}' gives no wait`, details);
  return delay;
}

/**
 * How long a delay step waits, in milliseconds, from `now`.
 * - regular: `amount unit` (a month is 30 days), replaced by `overrides.delay` when valid;
 * - scheduled: until the ISO date at payload path `delayPath` (a past date is an error, as Novu);
 * - timed: the next occurrence of `cron` in `timezone`;
 * - dynamic: `dynamicKey` points at an ISO date or an `{amount, unit}` object.
 * Throws InvalidDelayError for anything that cannot give a wait, DeferDurationExceededError beyond 180 days.
 */
export function computeDelayMs(
  metadata: DelayMetadata | undefined | null,
  payload: Record<string, unknown> | undefined | null,
  overrides: TimingOverrides | undefined | null,
  now: Date,
  timezone?: string | null,
): number {
  if (!metadata) throw new InvalidDelayError('invalid_delay_configuration', 'Step metadata not found');
  const type = metadata.type ?? 'regular';
  let delay: number;
  switch (type) {
    case 'scheduled': {
      const delayPath = metadata.delayPath;
      if (!delayPath) throw new InvalidDelayError('invalid_delay_configuration', 'Delay path not found');
      const at = parseInstant(readPayloadPath(payload ?? {}, delayPath));
      if (at === undefined) {
        throw new InvalidDelayError('invalid_delay_date', `Delay date at path ${delayPath} is missing or not a valid date`, { delayPath });
      }
      delay = at - now.getTime();
      if (delay < 0) throw InvalidDelayError.futureDateRequired(delayPath);
      break;
    }
    case 'timed': {
      if (!metadata.cron) throw new InvalidDelayError('invalid_delay_configuration', 'A timed delay needs a cron expression');
      delay = nextCronOccurrence(metadata.cron, now, timezone).getTime() - now.getTime();
      break;
    }
    case 'dynamic':
      delay = dynamicDelayMs(metadata.dynamicKey, payload, now);
      break;
    case 'regular': {
      const ms = delayOverrideMs(overrides) ?? durationMs(metadata.amount, metadata.unit);
      if (ms === undefined) {
        throw new InvalidDelayError('invalid_delay_configuration', 'A regular delay needs a non-negative amount and a valid unit', {
          amount: metadata.amount,
          unit: metadata.unit,
        });
      }
      delay = ms;
      break;
    }
    default:
      throw new InvalidDelayError('invalid_delay_configuration', `Unknown delay type "${type}"`, { type });
  }
  assertWithinDeferLimit(delay);
  return delay;
}

export function assertWithinDeferLimit(delayMs: number, limitMs: number = MAX_DEFER_DURATION_MS): void {
  if (delayMs > limitMs) throw new DeferDurationExceededError(delayMs, limitMs);
}
