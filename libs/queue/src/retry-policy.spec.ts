import { RetryableJobError } from '@app/kernel';
import { exponentialBackoffMs, retryDelayMs } from './retry-policy';

describe('retry policy', () => {
  it('retries only RetryableJobError, and only while runs remain', () => {
    const backoff = { type: 'exponential' as const, delayMs: 100 };
    expect(retryDelayMs(new Error('boom'), 1, 3, backoff)).toBeUndefined();
    expect(retryDelayMs(new RetryableJobError('again'), 1, 3, backoff)).toBe(100);
    expect(retryDelayMs(new RetryableJobError('again'), 2, 3, backoff)).toBe(300);
    expect(retryDelayMs(new RetryableJobError('again'), 3, 3, backoff)).toBeUndefined();
  });

  it('prefers the error’s retryAfterMs, and retries at once without a backoff', () => {
    expect(retryDelayMs(new RetryableJobError('slow down', 5000), 1, 2, { type: 'exponential', delayMs: 10 })).toBe(5000);
    expect(retryDelayMs(new RetryableJobError('again'), 1, 2)).toBe(0);
  });

  it('doubles like Bull: d, 3d, 7d', () => {
    expect([1, 2, 3].map((n) => exponentialBackoffMs(50, n))).toEqual([50, 150, 350]);
  });
});
