import type { ProviderErrorKind } from '../ports/channel-provider.port';

export interface RetryPolicy {
  /** Attempts in total, the first one included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1_000, maxDelayMs: 10 * 60_000 };

export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

/**
 * After a failed attempt (`attemptsMade` counts it): retryable errors back off exponentially with
 * jitter, rate limits wait at least their Retry-After (capped), everything else stops.
 */
export function decideRetry(
  error: { kind: ProviderErrorKind; retryAfterMs?: number },
  attemptsMade: number,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  random: () => number = Math.random,
): RetryDecision {
  if (error.kind !== 'retryable' && error.kind !== 'rate_limited') return { retry: false };
  if (attemptsMade >= policy.maxAttempts) return { retry: false };
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attemptsMade - 1));
  // half fixed, half jitter: spreads a burst of retries without ever retrying at once
  let delayMs = Math.round(exponential / 2 + (random() * exponential) / 2);
  if (error.kind === 'rate_limited' && error.retryAfterMs !== undefined) {
    delayMs = Math.max(delayMs, Math.min(error.retryAfterMs, policy.maxDelayMs));
  }
  return { retry: true, delayMs };
}
