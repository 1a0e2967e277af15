import { Schedule, isWithinSchedule, nextScheduleWindow, scheduleTimeToMinutes } from './preferences-schedule';

const weekdays9to5: Schedule = {
  isEnabled: true,
  weeklySchedule: Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] }]),
  ),
};

describe('scheduleTimeToMinutes', () => {
  it('reads 12-hour times', () => {
    expect(scheduleTimeToMinutes('12:00 AM')).toBe(0);
    expect(scheduleTimeToMinutes('12:30 PM')).toBe(12 * 60 + 30);
    expect(scheduleTimeToMinutes('09:15 PM')).toBe(21 * 60 + 15);
    expect(scheduleTimeToMinutes('13:00 PM')).toBeUndefined();
    expect(scheduleTimeToMinutes('9:00 AM')).toBeUndefined();
  });
});

describe('isWithinSchedule', () => {
  it('is unrestricted without a schedule, when it is off, or without a weekly plan', () => {
    const at = new Date('2024-01-06T03:00:00Z');
    expect(isWithinSchedule(undefined, 'UTC', at)).toBe(true);
    expect(isWithinSchedule({ ...weekdays9to5, isEnabled: false }, 'UTC', at)).toBe(true);
    expect(isWithinSchedule({ isEnabled: true }, 'UTC', at)).toBe(true);
  });

  it("reads the subscriber's wall clock", () => {
    // Monday 2024-01-08 14:30 UTC is 09:30 in New York, 06:30 in Los Angeles.
    const at = new Date('2024-01-08T14:30:00Z');
    expect(isWithinSchedule(weekdays9to5, 'America/New_York', at)).toBe(true);
    expect(isWithinSchedule(weekdays9to5, 'America/Los_Angeles', at)).toBe(false);
    expect(isWithinSchedule(weekdays9to5, 'Not/AZone', at)).toBe(true); // UTC fallback: 14:30
    expect(isWithinSchedule(weekdays9to5, 'UTC', new Date('2024-01-08T17:00:00Z'))).toBe(false); // end is exclusive
  });

  it('treats disabled and missing days as closed, and enabled days without hours as open', () => {
    const schedule: Schedule = { isEnabled: true, weeklySchedule: { saturday: { isEnabled: true }, sunday: { isEnabled: false, hours: [] } } };
    expect(isWithinSchedule(schedule, 'UTC', new Date('2024-01-06T03:00:00Z'))).toBe(true); // Saturday
    expect(isWithinSchedule(schedule, 'UTC', new Date('2024-01-07T12:00:00Z'))).toBe(false); // Sunday
    expect(isWithinSchedule(schedule, 'UTC', new Date('2024-01-08T12:00:00Z'))).toBe(false); // Monday, not listed
  });

  it('handles overnight ranges, including the morning after', () => {
    const nights: Schedule = { isEnabled: true, weeklySchedule: { friday: { isEnabled: true, hours: [{ start: '10:00 PM', end: '06:00 AM' }] } } };
    expect(isWithinSchedule(nights, 'UTC', new Date('2024-01-05T23:00:00Z'))).toBe(true); // Friday night
    expect(isWithinSchedule(nights, 'UTC', new Date('2024-01-06T05:59:00Z'))).toBe(true); // Saturday morning
    expect(isWithinSchedule(nights, 'UTC', new Date('2024-01-06T06:00:00Z'))).toBe(false);
    expect(isWithinSchedule(nights, 'UTC', new Date('2024-01-05T05:00:00Z'))).toBe(false); // Friday morning: Thursday had none
  });

  it('keeps wall-clock windows across DST changes', () => {
    // Europe/Berlin: 2024-03-31 clocks go 02:00 -> 03:00 (UTC+1 -> UTC+2).
    const sunday: Schedule = { isEnabled: true, weeklySchedule: { sunday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '10:00 AM' }] } } };
    expect(isWithinSchedule(sunday, 'Europe/Berlin', new Date('2024-03-31T07:30:00Z'))).toBe(true); // 09:30 CEST
    expect(isWithinSchedule(sunday, 'Europe/Berlin', new Date('2024-03-31T08:30:00Z'))).toBe(false); // 10:30 CEST
    expect(isWithinSchedule(sunday, 'Europe/Berlin', new Date('2024-03-24T08:30:00Z'))).toBe(true); // 09:30 CET a week earlier
  });
});

describe('nextScheduleWindow', () => {
  it('returns the moment itself when inside a window', () => {
    const at = new Date('2024-01-08T10:00:00Z');
    expect(nextScheduleWindow(weekdays9to5, 'UTC', at)).toBe(at);
  });

  it('finds the next opening, later today or after the weekend, in the subscriber timezone', () => {
    expect(nextScheduleWindow(weekdays9to5, 'UTC', new Date('2024-01-08T07:00:00Z'))?.toISOString()).toBe('2024-01-08T09:00:00.000Z');
    expect(nextScheduleWindow(weekdays9to5, 'UTC', new Date('2024-01-05T18:00:00Z'))?.toISOString()).toBe('2024-01-08T09:00:00.000Z');
    expect(nextScheduleWindow(weekdays9to5, 'America/New_York', new Date('2024-01-08T12:00:00Z'))?.toISOString()).toBe('2024-01-08T14:00:00.000Z');
  });

  it('finds a window a week ahead, and none when no day is open', () => {
    const mondayMorning: Schedule = { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '08:00 AM', end: '09:00 AM' }] } } };
    expect(nextScheduleWindow(mondayMorning, 'UTC', new Date('2024-01-08T10:00:00Z'))?.toISOString()).toBe('2024-01-15T08:00:00.000Z');
    expect(nextScheduleWindow({ isEnabled: true, weeklySchedule: {} }, 'UTC', new Date('2024-01-08T10:00:00Z'))).toBeNull();
  });

  it('moves a window opening inside a DST gap to the first valid minute', () => {
    // America/New_York 2024-03-10: 02:00 -> 03:00. A 02:30 opening becomes 03:30 EDT = 07:30 UTC.
    const gap: Schedule = { isEnabled: true, weeklySchedule: { sunday: { isEnabled: true, hours: [{ start: '02:30 AM', end: '05:00 AM' }] } } };
    const next = nextScheduleWindow(gap, 'America/New_York', new Date('2024-03-10T05:00:00Z'));
    expect(next?.toISOString()).toBe('2024-03-10T07:30:00.000Z');
    expect(isWithinSchedule(gap, 'America/New_York', next!)).toBe(true);
  });
});
