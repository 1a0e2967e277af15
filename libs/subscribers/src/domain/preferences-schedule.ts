import { DateTime, IANAZone } from 'luxon';

export const SCHEDULE_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type ScheduleDay = (typeof SCHEDULE_DAYS)[number];

/** `HH:MM AM|PM`, as Novu's schedule DTO. */
export const SCHEDULE_TIME_PATTERN = /^(0[1-9]|1[0-2]):([0-5]\d) (AM|PM)$/;

export interface TimeRange {
  start: string;
  end: string;
}

export interface DaySchedule {
  isEnabled: boolean;
  /** Absent or empty: the whole day. A range whose end is not after its start runs past midnight. */
  hours?: TimeRange[];
}

/** Quiet hours, inverted: the windows in which a subscriber may be notified, in their own timezone. */
export interface Schedule {
  isEnabled: boolean;
  /** Absent: no restriction. A day left out is a day without a window. */
  weeklySchedule?: Partial<Record<ScheduleDay, DaySchedule>>;
}

const MINUTES_PER_DAY = 24 * 60;

/** Minutes since midnight of `HH:MM AM|PM`, or undefined if malformed. */
export function scheduleTimeToMinutes(value: string): number | undefined {
  const match = SCHEDULE_TIME_PATTERN.exec(value);
  if (!match) return undefined;
  const hour12 = Number(match[1]) % 12;
  return (match[3] === 'PM' ? hour12 + 12 : hour12) * 60 + Number(match[2]);
}

interface Window {
  start: number;
  /** May exceed a day's minutes: the window then runs into the next day. */
  end: number;
}

function windowsOf(schedule: Schedule, day: ScheduleDay): Window[] {
  const daySchedule = schedule.weeklySchedule?.[day];
  if (!daySchedule?.isEnabled) return [];
  if (!daySchedule.hours?.length) return [{ start: 0, end: MINUTES_PER_DAY }];
  const windows: Window[] = [];
  for (const range of daySchedule.hours) {
    const start = scheduleTimeToMinutes(range.start);
    const end = scheduleTimeToMinutes(range.end);
    if (start === undefined || end === undefined) continue;
    windows.push({ start, end: end > start ? end : end + MINUTES_PER_DAY });
  }
  return windows;
}

function zoneOf(timezone: string | undefined): string {
  return timezone && IANAZone.isValidZone(timezone) ? timezone : 'UTC';
}

const dayOf = (local: DateTime): ScheduleDay => SCHEDULE_DAYS[local.weekday - 1];

/** Unrestricted when there is no schedule, it is off, or it has no weekly plan. */
function unrestricted(schedule: Schedule | null | undefined): boolean {
  return !schedule?.isEnabled || !schedule.weeklySchedule;
}

/**
 * Whether `at` falls in one of the subscriber's windows, read on their wall clock (an unknown
 * or missing timezone means UTC). Windows past midnight count for the next morning too.
 */
export function isWithinSchedule(schedule: Schedule | null | undefined, timezone: string | undefined, at: Date): boolean {
  if (unrestricted(schedule)) return true;
  const local = DateTime.fromJSDate(at, { zone: zoneOf(timezone) });
  const minute = local.hour * 60 + local.minute + local.second / 60;
  const today = windowsOf(schedule!, dayOf(local));
  if (today.some((w) => minute >= w.start && minute < w.end)) return true;
  const yesterday = windowsOf(schedule!, dayOf(local.minus({ days: 1 })));
  return yesterday.some((w) => w.end > MINUTES_PER_DAY && minute < w.end - MINUTES_PER_DAY);
}

/**
 * The first moment at or after `from` inside a window: `from` itself when already inside,
 * else the next window's start (a start in a DST gap moves to the first valid minute).
 * Null when the schedule has no window on any day.
 */
export function nextScheduleWindow(schedule: Schedule | null | undefined, timezone: string | undefined, from: Date): Date | null {
  if (isWithinSchedule(schedule, timezone, from)) return from;
  const zone = zoneOf(timezone);
  const startOfToday = DateTime.fromJSDate(from, { zone }).startOf('day');
  let best: DateTime | null = null;
  for (let offset = 0; offset <= 7; offset++) {
    const day = startOfToday.plus({ days: offset });
    for (const window of windowsOf(schedule!, dayOf(day))) {
      const start = DateTime.fromObject(
        { year: day.year, month: day.month, day: day.day, hour: Math.floor(window.start / 60), minute: window.start % 60 },
        { zone },
      );
      if (start.toMillis() > from.getTime() && (!best || start < best)) best = start;
    }
    if (best) break;
  }
  return best ? best.toJSDate() : null;
}
