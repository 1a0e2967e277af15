import { DeferredJobError, JobBackoff, RetryableJobError } from '@app/kernel';

/**
 * What happens after a handler throws, the same for every adapter: a DeferredJobError always runs
 * again (its run is not an attempt); otherwise retry only on RetryableJobError and only while runs remain; wait `retryAfterMs` when the error names one,
 * else the exponential backoff (Bull's formula: delayMs × (2^n − 1) before the n-th retry).
 */
export function retryDelayMs(error: unknown, failedRuns: number, attempts: number, backoff?: JobBackoff): number | undefined {
  if (error instanceof DeferredJobError) return Math.max(0, Math.round(error.retryAfterMs ?? 0));
  if (!(error instanceof RetryableJobError) || failedRuns >= attempts) return undefined;
  if (error.retryAfterMs !== undefined && error.retryAfterMs >= 0) return Math.round(error.retryAfterMs);
  return exponentialBackoffMs(backoff?.delayMs ?? 0, failedRuns);
}

export function exponentialBackoffMs(delayMs: number, failedRuns: number): number {
  return Math.round((Math.pow(2, failedRuns) - 1) * delayMs);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** How long finished jobs stay in the queue (and keep their id deduplicated). */
export interface JobRetention {
  completedMs: number;
  failedMs: number;
}
export const DEFAULT_RETENTION: JobRetention = { completedMs: 60 * 60_000, failedMs: 7 * 24 * 60 * 60_000 };
