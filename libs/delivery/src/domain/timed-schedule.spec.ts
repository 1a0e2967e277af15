import { InvalidDigestError } from './errors';
import { nextCronOccurrence, nextTimedOccurrence, parseTimeOfDay, resolveTimezone } from './timed-schedule';

// Saturday 2024-06-01 12:00 UTC
const now = new Date('2024-06-01T12:00:00.000Z');
const iso = (d: Date) => d.toISOString();

describe('parseTimeOfDay', () => {
  it('reads 24-hour and 12-hour forms', () => {
    expect(parseTimeOfDay('09:30')).toEqual({ hour: 9, minute: 30, second: 0 });
    expect(parseTimeOfDay('23:59:58')).toEqual({ hour: 23, minute: 59, second: 58 });
    expect(parseTimeOfDay('09:00 PM')).toEqual({ hour: 21, minute: 0, second: 0 });
    expect(parseTimeOfDay('12:15 AM')).toEqual({ hour: 0, minute: 15, second: 0 });
    expect(parseTimeOfDay(undefined)).toBeUndefined();
    expect(() => parseTimeOfDay('25:00')).toThrow(InvalidDigestError);
    expect(() => parseTimeOfDay('noon')).toThrow(InvalidDigestError);
  });
});

describe('resolveTimezone', () => {
  it('falls back to UTC for a missing or unknown zone', () => {
    expect(resolveTimezone('Europe/Paris')).toBe('Europe/Paris');
    expect(resolveTimezone(undefined)).toBe('UTC');
    expect(resolveTimezone('Mars/Olympus')).toBe('UTC');
  });
});

describe('nextCronOccurrence', () => {
  it('is strictly after now', () => {
    expect(iso(nextCronOccurrence('0 12 * * *', now))).toBe('2024-06-02T12:00:00.000Z');
    expect(iso(nextCronOccurrence('*/15 * * * *', now))).toBe('2024-06-01T12:15:00.000Z');
  });
  it('rejects a malformed expression with a typed error', () => {
    expect(() => nextCronOccurrence('61 * * * *', now)).toThrow(InvalidDigestError);
  });
});

describe('nextTimedOccurrence', () => {
  it('minutes and hours add amount units', () => {
    expect(iso(nextTimedOccurrence({ unit: 'minutes', amount: 30 }, now))).toBe('2024-06-01T12:30:00.000Z');
    expect(iso(nextTimedOccurrence({ unit: 'hours', amount: 2 }, now))).toBe('2024-06-01T14:00:00.000Z');
  });

  it('days: today at atTime when still ahead, else after amount days', () => {
    expect(iso(nextTimedOccurrence({ unit: 'days', amount: 1, timed: { atTime: '15:00' } }, now))).toBe('2024-06-01T15:00:00.000Z');
    expect(iso(nextTimedOccurrence({ unit: 'days', amount: 1, timed: { atTime: '09:00' } }, now))).toBe('2024-06-02T09:00:00.000Z');
    expect(iso(nextTimedOccurrence({ unit: 'days', amount: 3, timed: { atTime: '09:00' } }, now))).toBe('2024-06-04T09:00:00.000Z');
  });

  it('days: in the subscriber timezone, across the date line', () => {
    // now is 2024-06-02 00:00 in Auckland (UTC+12); 08:00 there is 20:00 UTC on June 1st
    expect(iso(nextTimedOccurrence({ unit: 'days', amount: 1, timed: { atTime: '08:00' } }, now, 'Pacific/Auckland'))).toBe('2024-06-01T20:00:00.000Z');
  });

  it('weeks: the listed week days at atTime', () => {
    // Saturday noon: Sunday 10:00 is still in this (Monday-based) week
    expect(iso(nextTimedOccurrence({ unit: 'weeks', amount: 1, timed: { atTime: '10:00', weekDays: ['sunday', 'monday'] } }, now))).toBe(
      '2024-06-02T10:00:00.000Z',
    );
    // Monday and Wednesday are past this week: next week's Monday
    expect(iso(nextTimedOccurrence({ unit: 'weeks', amount: 1, timed: { atTime: '10:00', weekDays: ['monday', 'wednesday'] } }, now))).toBe(
      '2024-06-03T10:00:00.000Z',
    );
    // every 2 weeks: the week after next
    expect(iso(nextTimedOccurrence({ unit: 'weeks', amount: 2, timed: { atTime: '10:00', weekDays: ['monday'] } }, now))).toBe('2024-06-10T10:00:00.000Z');
  });

  it('months, each: listed month days at atTime (negative counts from the end)', () => {
    expect(iso(nextTimedOccurrence({ unit: 'months', amount: 1, timed: { atTime: '08:00', monthDays: [1, 15] } }, now))).toBe('2024-06-15T08:00:00.000Z');
    expect(iso(nextTimedOccurrence({ unit: 'months', amount: 1, timed: { atTime: '08:00', monthDays: [-1] } }, now))).toBe('2024-06-30T08:00:00.000Z');
    // the 31st skips months without one
    expect(iso(nextTimedOccurrence({ unit: 'months', amount: 1, timed: { atTime: '08:00', monthDays: [31] } }, new Date('2024-05-31T09:00:00Z')))).toBe(
      '2024-07-31T08:00:00.000Z',
    );
  });

  it('months, on: ordinal rules', () => {
    const on = (ordinal: string, ordinalValue: string) =>
      iso(nextTimedOccurrence({ unit: 'months', amount: 1, timed: { atTime: '09:00', monthlyType: 'on', ordinal, ordinalValue } }, now));
    expect(on('1', 'monday')).toBe('2024-06-03T09:00:00.000Z');
    expect(on('last', 'friday')).toBe('2024-06-28T09:00:00.000Z');
    expect(on('1', 'weekday')).toBe('2024-06-03T09:00:00.000Z'); // June 1st is a Saturday
    expect(on('2', 'weekend')).toBe('2024-06-02T09:00:00.000Z');
    expect(on('last', 'day')).toBe('2024-06-30T09:00:00.000Z');
    expect(on('1', 'day')).toBe('2024-07-01T09:00:00.000Z');
  });

  it('handles daylight saving time: 09:00 local stays 09:00 local', () => {
    // Europe/Paris switches to summer time on 2024-03-31
    const before = new Date('2024-03-30T12:00:00Z');
    expect(iso(nextTimedOccurrence({ unit: 'days', amount: 1, timed: { atTime: '09:00' } }, before, 'Europe/Paris'))).toBe('2024-03-31T07:00:00.000Z');
  });

  it('uses the cron expression when given', () => {
    expect(iso(nextTimedOccurrence({ unit: 'days', timed: { cronExpression: '0 0 * * 1' } }, now))).toBe('2024-06-03T00:00:00.000Z');
  });

  it('rejects bad configurations with typed errors', () => {
    expect(() => nextTimedOccurrence({ unit: 'days', amount: 0 }, now)).toThrow(InvalidDigestError);
    expect(() => nextTimedOccurrence({ unit: 'years', amount: 1 }, now)).toThrow(InvalidDigestError);
    expect(() => nextTimedOccurrence({ unit: 'months', timed: { monthlyType: 'on', ordinal: '9', ordinalValue: 'day' } }, now)).toThrow(InvalidDigestError);
    expect(() => nextTimedOccurrence({ unit: 'months', timed: { monthDays: [31], weekDays: ['monday'], atTime: '01:00' }, amount: 1 }, now)).not.toThrow();
  });
});
