import { computeDelayMs } from './delay';
import { DeferDurationExceededError, InvalidDelayError } from './errors';

const now = new Date('2024-06-01T12:00:00.000Z');

describe('computeDelayMs', () => {
  it('regular: amount × unit, a month being 30 days', () => {
    expect(computeDelayMs({ type: 'regular', amount: 5, unit: 'seconds' }, {}, {}, now)).toBe(5_000);
    expect(computeDelayMs({ type: 'regular', amount: 2, unit: 'minutes' }, {}, {}, now)).toBe(120_000);
    expect(computeDelayMs({ type: 'regular', amount: 1, unit: 'hours' }, {}, {}, now)).toBe(3_600_000);
    expect(computeDelayMs({ type: 'regular', amount: 1, unit: 'days' }, {}, {}, now)).toBe(86_400_000);
    expect(computeDelayMs({ type: 'regular', amount: 1, unit: 'weeks' }, {}, {}, now)).toBe(7 * 86_400_000);
    expect(computeDelayMs({ type: 'regular', amount: 1, unit: 'months' }, {}, {}, now)).toBe(30 * 86_400_000);
    expect(computeDelayMs({ amount: 3, unit: 'seconds' }, {}, {}, now)).toBe(3_000); // type defaults to regular
  });

  it('regular: overrides.delay {amount, unit} replaces the configured wait; an invalid one is ignored', () => {
    expect(computeDelayMs({ type: 'regular', amount: 5, unit: 'hours' }, {}, { delay: { amount: 10, unit: 'seconds' } }, now)).toBe(10_000);
    expect(computeDelayMs({ type: 'regular', amount: 5, unit: 'seconds' }, {}, { delay: { amount: 'x', unit: 'seconds' } }, now)).toBe(5_000);
    expect(computeDelayMs({ type: 'regular', amount: 5, unit: 'seconds' }, {}, { delay: { amount: 1, unit: 'years' } }, now)).toBe(5_000);
  });

  it('regular without amount or unit is an invalid configuration', () => {
    expect(() => computeDelayMs({ type: 'regular' }, {}, {}, now)).toThrow(InvalidDelayError);
    expect(() => computeDelayMs({ type: 'regular', amount: 1, unit: 'fortnights' }, {}, {}, now)).toThrow(InvalidDelayError);
    expect(() => computeDelayMs(undefined, {}, {}, now)).toThrow('Step metadata not found');
  });

  it('scheduled: waits until the ISO date at the payload path (nested paths, payload. prefix)', () => {
    const meta = { type: 'scheduled', delayPath: 'sendAt' };
    expect(computeDelayMs(meta, { sendAt: '2024-06-01T12:00:30.000Z' }, {}, now)).toBe(30_000);
    expect(computeDelayMs({ type: 'scheduled', delayPath: 'when.at' }, { when: { at: '2024-06-01T13:00:00Z' } }, {}, now)).toBe(3_600_000);
    expect(computeDelayMs({ type: 'scheduled', delayPath: 'payload.sendAt' }, { sendAt: '2024-06-01T12:01:00Z' }, {}, now)).toBe(60_000);
  });

  it("scheduled: a past date fails with Novu's message and the path", () => {
    let error: InvalidDelayError | undefined;
    try {
      computeDelayMs({ type: 'scheduled', delayPath: 'sendAt' }, { sendAt: '2024-05-01T00:00:00Z' }, {}, now);
    } catch (e) {
      error = e as InvalidDelayError;
    }
    expect(error).toBeInstanceOf(InvalidDelayError);
    expect(error!.message).toBe('Delay date at path must be a future date');
    expect(error!.code).toBe('delay_date_not_in_future');
    expect(error!.details).toEqual({ delayPath: 'sendAt' });
  });

  it('scheduled: a missing path or an unparsable date is an invalid configuration', () => {
    expect(() => computeDelayMs({ type: 'scheduled' }, {}, {}, now)).toThrow('Delay path not found');
    expect(() => computeDelayMs({ type: 'scheduled', delayPath: 'sendAt' }, {}, {}, now)).toThrow(InvalidDelayError);
    expect(() => computeDelayMs({ type: 'scheduled', delayPath: 'sendAt' }, { sendAt: 'soon' }, {}, now)).toThrow(InvalidDelayError);
  });

  it('timed: the next cron occurrence in the subscriber timezone', () => {
    // 09:00 in New York (EDT, UTC-4) is 13:00 UTC, one hour after now
    expect(computeDelayMs({ type: 'timed', cron: '0 9 * * *' }, {}, {}, now, 'America/New_York')).toBe(3_600_000);
    expect(computeDelayMs({ type: 'timed', cron: '0 9 * * *' }, {}, {}, now)).toBe(21 * 3_600_000); // UTC: tomorrow 09:00
    expect(() => computeDelayMs({ type: 'timed', cron: 'not a cron' }, {}, {}, now)).toThrow();
  });

  it('dynamic: an ISO date-time or an {amount, unit} at the key', () => {
    const dynamic = (dynamicKey: string) => ({ type: 'dynamic', dynamicKey });
    expect(computeDelayMs(dynamic('payload.sendAt'), { sendAt: '2024-06-01T12:00:10Z' }, {}, now)).toBe(10_000);
    expect(computeDelayMs(dynamic('payload.sendAt'), { sendAt: '2024-06-01T12:00:10.500Z' }, {}, now)).toBe(10_500);
    expect(computeDelayMs(dynamic('payload.sendAt'), { sendAt: '2024-06-01T14:00:10+02:00' }, {}, now)).toBe(10_000);
    // no zone: read as UTC
    expect(computeDelayMs(dynamic('payload.sendAt'), { sendAt: '2024-06-01T12:01:00' }, {}, now)).toBe(60_000);
    expect(computeDelayMs(dynamic('payload.wait'), { wait: { amount: 2, unit: 'minutes' } }, {}, now)).toBe(120_000);
    expect(computeDelayMs(dynamic('payload.when.wait'), { when: { wait: { amount: 1, unit: 'hours' } } }, {}, now)).toBe(3_600_000);
    // the overrides' delay is for regular delays only
    expect(computeDelayMs(dynamic('payload.wait'), { wait: { amount: 1, unit: 'seconds' } }, { delay: { amount: 9, unit: 'hours' } }, now)).toBe(1_000);
  });

  it("dynamic: each way the value can be wrong fails with its own message (Novu's wording for each)", () => {
    const failure = (payload: Record<string, unknown>) => {
      try {
        computeDelayMs({ type: 'dynamic', dynamicKey: 'payload.at' }, payload, {}, now);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidDelayError);
        return { code: (error as InvalidDelayError).code, message: (error as Error).message };
      }
      throw new Error('expected a failure');
    };
    expect(failure({})).toEqual({ code: 'invalid_delay_value', message: "Dynamic delay key 'payload.at' not found in payload" });
    expect(failure({ at: '' }).message).toMatch(/not found in payload/);
    expect(failure({ at: '2020-01-01T00:00:00Z' })).toEqual({
      code: 'delay_date_not_in_future',
      message: "Dynamic delay timestamp '2020-01-01T00:00:00Z' must be a future date",
    });
    expect(failure({ at: 'invalid-format' }).message).toMatch(/not a valid format/);
    expect(failure({ at: '20-09-2025' }).message).toMatch(/not a valid format/);
    expect(failure({ at: '2025-09-20' }).message).toMatch(/not a valid format/); // a date without a time
    expect(failure({ at: 42 }).message).toMatch(/not a valid format/);
    expect(failure({ at: { amount: 5 } }).message).toMatch(/not a valid format/);
    expect(failure({ at: ['2025-09-20T00:00:00Z'] }).message).toMatch(/not a valid format/);
    expect(failure({ at: { amount: 5, unit: 'fortnights' } }).message).toMatch(/^Invalid time unit 'fortnights'/);
    expect(failure({ at: { amount: -1, unit: 'seconds' } }).message).toMatch(/^Invalid amount '-1'/);
    expect(failure({ at: { amount: '5', unit: 'seconds' } }).message).toMatch(/^Invalid amount '5'/);
    expect(failure({ at: { amount: 0, unit: 'seconds' } })).toMatchObject({
      code: 'delay_date_not_in_future',
      message: expect.stringMatching(/must be in the future/),
    });
    expect(() => computeDelayMs({ type: 'dynamic' }, {}, {}, now)).toThrow('Dynamic delay key not found');
    expect(() => computeDelayMs({ type: 'dynamic', dynamicKey: 'payload.at' }, { at: { amount: 181, unit: 'days' } }, {}, now)).toThrow(
      DeferDurationExceededError,
    );
  });

  it('refuses waits beyond the 180-day limit', () => {
    expect(() => computeDelayMs({ type: 'regular', amount: 7, unit: 'months' }, {}, {}, now)).toThrow(DeferDurationExceededError);
    expect(computeDelayMs({ type: 'regular', amount: 6, unit: 'months' }, {}, {}, now)).toBe(180 * 86_400_000);
  });

  it('rejects unknown delay types', () => {
    expect(() => computeDelayMs({ type: 'whenever' }, {}, {}, now)).toThrow(InvalidDelayError);
  });
});
