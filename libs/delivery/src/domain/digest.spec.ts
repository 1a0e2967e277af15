import { InvalidDigestError } from './errors';
import { backoffWindowMs, digestBucketKey, digestValue, digestWindow, isBackoffDigest, NO_DIGEST_KEY, NO_DIGEST_VALUE } from './digest';

const now = new Date('2024-06-01T12:00:00.000Z');

describe('digestValue / digestBucketKey', () => {
  it("uses Novu's fallbacks when there is no key or no value", () => {
    expect(digestValue(undefined, { a: 1 })).toBe(NO_DIGEST_KEY);
    expect(digestValue('', { a: 1 })).toBe('No-Key-Provided');
    expect(digestValue('postId', {})).toBe(NO_DIGEST_VALUE);
    expect(digestValue('postId', { postId: null })).toBe('No-Value-Provided');
    expect(digestValue('postId', { postId: '' })).toBe('No-Value-Provided');
  });

  it('reads nested paths (Novu issue #2697) and stringifies non-strings', () => {
    expect(digestValue('post.id', { post: { id: 42 } })).toBe('42');
    expect(digestValue('payload.post.id', { post: { id: 'p1' } })).toBe('p1');
    expect(digestValue('post', { post: { id: 1 } })).toBe('{"id":1}');
    expect(digestValue('flag', { flag: false })).toBe('false');
  });

  it('separates buckets by workflow, subscriber and value, unambiguously', () => {
    const a = digestBucketKey('wf', 'sub', 'postId', { postId: 'x' });
    expect(a).toBe(digestBucketKey('wf', 'sub', 'postId', { postId: 'x', other: 1 }));
    expect(a).not.toBe(digestBucketKey('wf', 'sub', 'postId', { postId: 'y' }));
    expect(a).not.toBe(digestBucketKey('wf', 'sub2', 'postId', { postId: 'x' }));
    expect(a).not.toBe(digestBucketKey('wf2', 'sub', 'postId', { postId: 'x' }));
    expect(digestBucketKey('a:b', 'c', undefined, {})).not.toBe(digestBucketKey('a', 'b:c', undefined, {}));
    expect(digestBucketKey('wf', 'sub', undefined, {})).toBe(JSON.stringify(['wf', 'sub', 'No-Key-Provided']));
  });
});

describe('digestWindow', () => {
  it('regular: waits amount × unit', () => {
    expect(digestWindow({ type: 'regular', amount: 10, unit: 'minutes' }, { now })).toEqual({
      action: 'wait',
      delayMs: 600_000,
      fireAt: new Date('2024-06-01T12:10:00.000Z'),
    });
  });

  it('regular: overrides.delay replaces the window', () => {
    const w = digestWindow({ type: 'regular', amount: 10, unit: 'minutes' }, { now, overrides: { delay: { amount: 5, unit: 'seconds' } } });
    expect(w).toMatchObject({ action: 'wait', delayMs: 5_000 });
  });

  it('regular without amount is invalid', () => {
    expect(() => digestWindow({ type: 'regular' }, { now })).toThrow(InvalidDigestError);
    expect(() => digestWindow(undefined, { now })).toThrow(InvalidDigestError);
  });

  it('backoff: skips the first event, digests when another event arrived within the window', () => {
    const meta = { type: 'backoff', amount: 5, unit: 'minutes', backoffAmount: 1, backoffUnit: 'minutes' };
    expect(isBackoffDigest(meta)).toBe(true);
    expect(backoffWindowMs(meta)).toBe(60_000);
    expect(digestWindow(meta, { now })).toEqual({ action: 'skip', reason: 'first_backoff_event' });
    expect(digestWindow(meta, { now, recentEventInBackoffWindow: false })).toEqual({ action: 'skip', reason: 'first_backoff_event' });
    expect(digestWindow(meta, { now, recentEventInBackoffWindow: true })).toMatchObject({ action: 'wait', delayMs: 300_000 });
  });

  it('backoff: also as regular + backoff:true; misconfigured backoff is invalid', () => {
    const meta = { type: 'regular', amount: 5, unit: 'minutes', backoff: true, backoffAmount: 30, backoffUnit: 'seconds' };
    expect(isBackoffDigest(meta)).toBe(true);
    expect(digestWindow(meta, { now })).toMatchObject({ action: 'skip' });
    expect(() => digestWindow({ type: 'backoff', amount: 5, unit: 'minutes' }, { now })).toThrow(InvalidDigestError);
  });

  it('timed: cron expression in the subscriber timezone', () => {
    const w = digestWindow({ type: 'timed', timed: { cronExpression: '0 9 * * *' } }, { now, timezone: 'America/New_York' });
    expect(w).toEqual({ action: 'wait', delayMs: 3_600_000, fireAt: new Date('2024-06-01T13:00:00.000Z') });
    expect(digestWindow({ cron: '30 12 * * *' }, { now })).toMatchObject({ fireAt: new Date('2024-06-01T12:30:00.000Z') });
  });

  it('timed: daily at a time', () => {
    const w = digestWindow({ type: 'timed', unit: 'days', amount: 1, timed: { atTime: '18:00' } }, { now, timezone: 'Europe/Paris' });
    // 18:00 in Paris (CEST, UTC+2) is 16:00 UTC
    expect(w).toMatchObject({ fireAt: new Date('2024-06-01T16:00:00.000Z') });
  });
});
