import { DEFAULT_RETRY_POLICY, decideRetry } from './retry-policy';

const policy = { maxAttempts: 4, baseDelayMs: 1_000, maxDelayMs: 60_000 };

describe('decideRetry', () => {
  it('never retries permanent kinds', () => {
    for (const kind of ['auth', 'invalid_request', 'invalid_recipient', 'permanent'] as const) {
      expect(decideRetry({ kind }, 1, policy)).toEqual({ retry: false });
    }
  });

  it('backs off exponentially with bounded jitter, and stops after maxAttempts', () => {
    expect(decideRetry({ kind: 'retryable' }, 1, policy, () => 0)).toEqual({ retry: true, delayMs: 500 });
    expect(decideRetry({ kind: 'retryable' }, 1, policy, () => 1)).toEqual({ retry: true, delayMs: 1_000 });
    expect(decideRetry({ kind: 'retryable' }, 2, policy, () => 1)).toEqual({ retry: true, delayMs: 2_000 });
    expect(decideRetry({ kind: 'retryable' }, 3, policy, () => 1)).toEqual({ retry: true, delayMs: 4_000 });
    expect(decideRetry({ kind: 'retryable' }, 4, policy)).toEqual({ retry: false });
  });

  it('caps the delay', () => {
    expect(decideRetry({ kind: 'retryable' }, 30, { ...policy, maxAttempts: 100 }, () => 1)).toEqual({ retry: true, delayMs: 60_000 });
  });

  it('waits at least Retry-After (capped) when rate limited', () => {
    expect(decideRetry({ kind: 'rate_limited', retryAfterMs: 30_000 }, 1, policy, () => 0)).toEqual({ retry: true, delayMs: 30_000 });
    expect(decideRetry({ kind: 'rate_limited', retryAfterMs: 3_600_000 }, 1, policy, () => 0)).toEqual({ retry: true, delayMs: 60_000 });
    expect(decideRetry({ kind: 'rate_limited' }, 1, policy, () => 0)).toEqual({ retry: true, delayMs: 500 });
  });

  it('has a default policy', () => {
    expect(DEFAULT_RETRY_POLICY.maxAttempts).toBeGreaterThan(1);
  });
});
