import { DeferDurationExceededError, InvalidThrottleError } from './errors';
import { throttleThreshold, throttleWindowEnd, throttleWindowKey, throttleWindowLength } from './throttle';

const now = new Date('2026-03-02T10:00:00Z');

describe('throttle windows', () => {
  it('a fixed window lasts amount × unit from the run that opens it', () => {
    const length = throttleWindowLength({ type: 'fixed', amount: 5, unit: 'minutes' }, {}, now);
    expect(length).toEqual({ ms: 300_000 });
    expect(throttleWindowEnd(length!, now)).toEqual(new Date('2026-03-02T10:05:00Z'));
    expect(throttleWindowLength({ amount: 2, unit: 'hours' }, {}, now)).toEqual({ ms: 7_200_000 });
  });

  it('refuses a fixed window without a positive length', () => {
    for (const settings of [{ type: 'fixed' }, { amount: 0, unit: 'minutes' }, { amount: 1, unit: 'fortnights' }]) {
      expect(() => throttleWindowLength(settings, {}, now)).toThrow(InvalidThrottleError);
    }
  });

  it('a dynamic window reads {amount, unit} or an ISO date-time from the payload, with or without the payload. prefix', () => {
    expect(throttleWindowLength({ type: 'dynamic', dynamicKey: 'payload.window' }, { window: { amount: 3, unit: 'seconds' } }, now)).toEqual({ ms: 3000 });
    expect(throttleWindowLength({ type: 'dynamic', dynamicKey: 'window' }, { window: { amount: 1, unit: 'days' } }, now)).toEqual({ ms: 86_400_000 });
    const until = throttleWindowLength({ type: 'dynamic', dynamicKey: 'payload.until' }, { until: '2026-03-31T23:59:59Z' }, now);
    expect(until).toEqual({ until: new Date('2026-03-31T23:59:59Z') });
    // an end date is the same whenever the window opens
    expect(throttleWindowEnd(until!, new Date('2026-03-05T00:00:00Z'))).toEqual(new Date('2026-03-31T23:59:59Z'));
    // a date-time without a zone is UTC, as the dynamic delay reads it
    expect(throttleWindowLength({ type: 'dynamic', dynamicKey: 'payload.until' }, { until: '2026-03-02T11:00' }, now)).toEqual({
      until: new Date('2026-03-02T11:00:00Z'),
    });
  });

  it('a dynamic value that is missing or of no known shape gives no window (the run goes on unthrottled, as Novu)', () => {
    const dynamic = { type: 'dynamic', dynamicKey: 'payload.window' };
    for (const payload of [
      {},
      { window: 'soon' },
      { window: 5 },
      { window: { amount: 'x', unit: 'minutes' } },
      { window: { amount: 1, unit: 'fortnights' } },
    ]) {
      expect(throttleWindowLength(dynamic, payload, now)).toBeUndefined();
    }
  });

  it('a dynamic window already over, or beyond the 180-day limit, fails the step', () => {
    const dynamic = { type: 'dynamic', dynamicKey: 'payload.window' };
    expect(() => throttleWindowLength(dynamic, { window: '2026-03-02T10:00:00Z' }, now)).toThrow(/Throttle window in past/);
    expect(() => throttleWindowLength(dynamic, { window: { amount: 0, unit: 'minutes' } }, now)).toThrow(InvalidThrottleError);
    expect(() => throttleWindowLength(dynamic, { window: { amount: 181, unit: 'days' } }, now)).toThrow(DeferDurationExceededError);
    expect(() => throttleWindowLength({ type: 'dynamic' }, {}, now)).toThrow(InvalidThrottleError);
  });

  it('admits 1 run per window unless the threshold says more', () => {
    expect(throttleThreshold({})).toBe(1);
    expect(throttleThreshold({ threshold: 0 })).toBe(1);
    expect(throttleThreshold({ threshold: 3 })).toBe(3);
  });

  it('keys a window by workflow, step and subscriber, and by the value at throttleKey when there is one', () => {
    const scope = { workflowId: 'wf', stepId: 'st', subscriberId: 'sub' };
    expect(throttleWindowKey(scope, undefined, { projectId: 'a' })).toBe('["wf","st","sub"]');
    const a = throttleWindowKey(scope, 'payload.projectId', { projectId: 'a' });
    expect(throttleWindowKey(scope, 'payload.projectId', { projectId: 'a', other: 1 })).toBe(a);
    expect(throttleWindowKey(scope, 'payload.projectId', { projectId: 'b' })).not.toBe(a);
    // a number and its text are different values; runs without a value share one window
    expect(throttleWindowKey(scope, 'payload.projectId', { projectId: 1 })).not.toBe(throttleWindowKey(scope, 'payload.projectId', { projectId: '1' }));
    expect(throttleWindowKey(scope, 'payload.projectId', {})).toBe(throttleWindowKey(scope, 'payload.projectId', { projectId: null }));
    // a large value keeps the key short
    expect(throttleWindowKey(scope, 'payload.projectId', { projectId: 'x'.repeat(10_000) }).length).toBeLessThan(100);
  });
});
