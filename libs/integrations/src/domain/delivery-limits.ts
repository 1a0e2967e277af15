import { InvalidDeliveryLimitsError } from './errors';

/** How fast the service may call the vendor through one integration, every worker together. */
export interface IntegrationRateLimit {
  /** Vendor calls per second, sustained. */
  perSecond: number;
  /** Calls allowed above `perSecond` in a burst, at most this many more within BURST_WINDOW_SECONDS (default 0). */
  burst?: number;
}

/** The limits of one integration's vendor calls; a field left out takes the provider's default, if it has one. */
export interface DeliveryLimits {
  rateLimit?: IntegrationRateLimit;
  /** Vendor calls in flight at once through the integration, every worker together. */
  maxConcurrency?: number;
}

/** The window a burst is counted in. */
export const BURST_WINDOW_SECONDS = 10;
export const MAX_RATE_PER_SECOND = 100_000;
export const MAX_CONCURRENCY = 10_000;

const isWhole = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/** The limits as stored: whole numbers in range, or a 422 naming each field at fault. `null` clears a field. */
export function validateDeliveryLimits(limits: { rateLimit?: IntegrationRateLimit | null; maxConcurrency?: number | null }): DeliveryLimits {
  const problems: Record<string, string> = {};
  const { rateLimit, maxConcurrency } = limits;
  if (rateLimit !== undefined && rateLimit !== null) {
    if (typeof rateLimit !== 'object') problems.rateLimit = 'must be an object { perSecond, burst? }';
    else {
      if (!isWhole(rateLimit.perSecond, 1, MAX_RATE_PER_SECOND)) problems['rateLimit.perSecond'] = `must be a whole number from 1 to ${MAX_RATE_PER_SECOND}`;
      if (rateLimit.burst !== undefined && !isWhole(rateLimit.burst, 0, MAX_RATE_PER_SECOND))
        problems['rateLimit.burst'] = `must be a whole number from 0 to ${MAX_RATE_PER_SECOND}`;
    }
  }
  if (maxConcurrency !== undefined && maxConcurrency !== null && !isWhole(maxConcurrency, 1, MAX_CONCURRENCY))
    problems.maxConcurrency = `must be a whole number from 1 to ${MAX_CONCURRENCY}`;
  if (Object.keys(problems).length) throw new InvalidDeliveryLimitsError(problems);
  return {
    ...(rateLimit ? { rateLimit: { perSecond: rateLimit.perSecond, ...(rateLimit.burst ? { burst: rateLimit.burst } : {}) } } : {}),
    ...(maxConcurrency ? { maxConcurrency } : {}),
  };
}
