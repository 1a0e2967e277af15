import { assertWithinDeferLimit, delayOverrideMs, readPayloadPath } from './delay';
import { InvalidDigestError } from './errors';
import { DigestMetadata, TimingOverrides, durationMs } from './step-metadata';
import { nextTimedOccurrence } from './timed-schedule';

export const NO_DIGEST_KEY = 'No-Key-Provided';
export const NO_DIGEST_VALUE = 'No-Value-Provided';

/** The value that buckets events of one digest: Novu's fallbacks when there is no key or no value. */
export function digestValue(digestKey: string | undefined | null, payload: unknown): string {
  if (!digestKey) return NO_DIGEST_KEY;
  const value = readPayloadPath(payload ?? {}, digestKey);
  if (value === undefined || value === null || value === '') return NO_DIGEST_VALUE;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * One digest bucket: workflow + subscriber + digest value. JSON keeps it unambiguous whatever
 * characters the parts contain, so it can be a unique key in a store.
 */
export function digestBucketKey(workflowId: string, subscriberId: string, digestKey: string | undefined | null, payload: unknown): string {
  return JSON.stringify([workflowId, subscriberId, digestValue(digestKey, payload)]);
}

export function isBackoffDigest(metadata: DigestMetadata): boolean {
  return metadata.type === 'backoff' || (metadata.type !== 'timed' && metadata.backoff === true);
}

export function isTimedDigest(metadata: DigestMetadata): boolean {
  return metadata.type === 'timed' || (!!metadata.cron && metadata.type !== 'regular' && metadata.type !== 'backoff');
}

/** The backoff look-back window in ms (events of the bucket within it make this event digest). */
export function backoffWindowMs(metadata: DigestMetadata): number {
  const ms = durationMs(metadata.backoffAmount, metadata.backoffUnit);
  if (ms === undefined) {
    throw new InvalidDigestError('invalid_digest_configuration', 'A backoff digest needs backoffAmount and backoffUnit', {
      backoffAmount: metadata.backoffAmount,
      backoffUnit: metadata.backoffUnit,
    });
  }
  return ms;
}

export interface DigestWindowContext {
  now: Date;
  /** The subscriber's timezone, for timed digests. */
  timezone?: string | null;
  overrides?: TimingOverrides | null;
  /**
   * Backoff digests only: whether another event of the same bucket arrived within the backoff
   * window (see backoffWindowMs). Without one the event is not digested.
   */
  recentEventInBackoffWindow?: boolean;
}

export type DigestWindow = { action: 'skip'; reason: 'first_backoff_event' } | { action: 'wait'; fireAt: Date; delayMs: number };

/**
 * When a digest that starts now fires: regular and backoff wait `amount unit` (or `overrides.delay`),
 * timed waits for the next rule/cron occurrence in the subscriber's timezone. A backoff digest
 * with no recent event is skipped (Novu: "Digest was skipped, first backoff event").
 */
export function digestWindow(metadata: DigestMetadata | undefined | null, context: DigestWindowContext): DigestWindow {
  if (!metadata) throw new InvalidDigestError('invalid_digest_configuration', 'Step metadata not found');
  const now = context.now;
  let delayMs: number;
  if (isTimedDigest(metadata)) {
    const fireAt = nextTimedOccurrence({ unit: metadata.unit, amount: metadata.amount, timed: metadata.timed, cron: metadata.cron }, now, context.timezone);
    delayMs = fireAt.getTime() - now.getTime();
  } else {
    if (isBackoffDigest(metadata)) {
      backoffWindowMs(metadata); // validates the configuration even for the first event
      if (!context.recentEventInBackoffWindow) return { action: 'skip', reason: 'first_backoff_event' };
    }
    const ms = delayOverrideMs(context.overrides) ?? durationMs(metadata.amount, metadata.unit);
    if (ms === undefined) {
      throw new InvalidDigestError('invalid_digest_configuration', 'A digest needs a non-negative amount and a valid unit', {
        amount: metadata.amount,
        unit: metadata.unit,
      });
    }
    delayMs = ms;
  }
  assertWithinDeferLimit(delayMs);
  return { action: 'wait', fireAt: new Date(now.getTime() + delayMs), delayMs };
}
