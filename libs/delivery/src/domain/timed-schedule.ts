import { CronExpressionParser } from 'cron-parser';
import { DateTime } from 'luxon';
import { InvalidDigestError } from './errors';
import { DigestTimedConfig, WEEK_DAYS, durationMs, isTimeUnit } from './step-metadata';

export interface TimedScheduleInput {
  unit?: string;
  amount?: number;
  timed?: DigestTimedConfig;
  /** A cron expression; wins over the other rules. */
  cron?: string;
}

/** A usable IANA zone, falling back to UTC for a missing or unknown one. */
export function resolveTimezone(timezone: string | undefined | null): string {
  if (!timezone) return 'UTC';
  return DateTime.now().setZone(timezone).isValid ? timezone : 'UTC';
}

/** Next occurrence of a cron expression strictly after `now`, in the given timezone. */
export function nextCronOccurrence(expression: string, now: Date, timezone?: string | null): Date {
  try {
    return CronExpressionParser.parse(expression, { currentDate: now, tz: resolveTimezone(timezone) })
      .next()
      .toDate();
  } catch (err) {
    throw new InvalidDigestError('invalid_cron_expression', `Invalid cron expression "${expression}": ${(err as Error).message}`, {
      cronExpression: expression,
    });
  }
}

interface TimeOfDay {
  hour: number;
  minute: number;
  second: number;
}

/** Parses `HH:mm`, `HH:mm:ss`, `h:mm AM`; undefined when absent, an error when malformed. */
export function parseTimeOfDay(value: string | undefined): TimeOfDay | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const match = /^\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?\s*$/.exec(value);
  if (!match) throw new InvalidDigestError('invalid_digest_time', `Invalid digest time "${value}"`, { atTime: value });
  let hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = match[3] ? Number(match[3]) : 0;
  const meridiem = match[4]?.toUpperCase();
  if (meridiem) {
    if (hour < 1 || hour > 12) throw new InvalidDigestError('invalid_digest_time', `Invalid digest time "${value}"`, { atTime: value });
    hour = (hour % 12) + (meridiem === 'PM' ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second > 59) {
    throw new InvalidDigestError('invalid_digest_time', `Invalid digest time "${value}"`, { atTime: value });
  }
  return { hour, minute, second };
}

const ORDINALS: Record<string, number> = { '1': 1, '2': 2, '3': 3, '4': 4, '5': 5, last: -1 };
// luxon weekday: 1 = Monday … 7 = Sunday
const WEEKDAY_NUMBER: Record<string, number> = Object.fromEntries(WEEK_DAYS.map((day, i) => [day, i + 1]));
/** How far ahead to search before giving up (a rule like "the 31st of February" never fires). */
const SEARCH_PERIODS = 500;

/**
 * Next fire time of a timed digest. Like Novu (an RRULE starting now with interval `amount`):
 * the current period counts first, then every `amount`-th period after it; minutes and hours
 * simply add `amount` units. Days, weeks and months honour `atTime`, `weekDays`, `monthDays`
 * (monthlyType `each`) or `ordinal` + `ordinalValue` (monthlyType `on`), in the subscriber's
 * timezone. Unlike Novu a rule with no occurrence inside the first interval is searched further.
 */
export function nextTimedOccurrence(input: TimedScheduleInput, now: Date, timezone?: string | null): Date {
  const cron = input.cron ?? input.timed?.cronExpression;
  if (cron) return nextCronOccurrence(cron, now, timezone);

  const unit = input.unit ?? 'minutes';
  const amount = input.amount ?? 1;
  if (!isTimeUnit(unit) || !Number.isInteger(amount) || amount < 1) {
    throw new InvalidDigestError('invalid_digest_configuration', 'A timed digest needs a positive integer amount and a valid unit', {
      unit,
      amount,
    });
  }
  if (unit === 'seconds' || unit === 'minutes' || unit === 'hours') {
    return new Date(now.getTime() + (durationMs(amount, unit) as number));
  }

  const timed = input.timed ?? {};
  const zone = resolveTimezone(timezone);
  const local = DateTime.fromJSDate(now, { zone });
  const time = parseTimeOfDay(timed.atTime) ?? { hour: local.hour, minute: local.minute, second: local.second };
  const matchesDay = dayRule(unit, timed, local);
  const periodUnit = unit === 'days' ? 'day' : unit === 'weeks' ? 'week' : 'month';
  const firstPeriod = local.startOf(periodUnit); // weeks start on Monday (ISO), as RRULE's default

  for (let period = 0; period < SEARCH_PERIODS; period++) {
    const start = firstPeriod.plus({ [`${periodUnit}s`]: period * amount });
    const end = start.plus({ [`${periodUnit}s`]: 1 });
    for (let day = start; day < end; day = day.plus({ days: 1 })) {
      if (!matchesDay(day)) continue;
      const candidate = day.set({ hour: time.hour, minute: time.minute, second: time.second, millisecond: 0 });
      if (candidate.toMillis() > now.getTime()) return candidate.toJSDate();
    }
  }
  throw new InvalidDigestError('digest_never_fires', 'The timed digest rule has no upcoming occurrence', { timed });
}

type DayMatcher = (day: DateTime) => boolean;

function dayRule(unit: 'days' | 'weeks' | 'months', timed: DigestTimedConfig, local: DateTime): DayMatcher {
  const weekDays = (timed.weekDays ?? []).map((d) => WEEKDAY_NUMBER[String(d).toLowerCase()]).filter(Boolean);
  if (unit === 'days') return () => true;
  if (unit === 'weeks') {
    const days = weekDays.length > 0 ? weekDays : [local.weekday];
    return (day) => days.includes(day.weekday);
  }
  if ((timed.monthlyType ?? 'each') === 'on') return ordinalRule(timed);
  const monthDays = (timed.monthDays ?? []).map(Number).filter((n) => Number.isInteger(n) && n !== 0);
  if (monthDays.length === 0 && weekDays.length === 0) return (day) => day.day === local.day;
  return (day) =>
    (monthDays.length === 0 || monthDays.some((n) => (n > 0 ? day.day === n : day.day === day.daysInMonth! + n + 1))) &&
    (weekDays.length === 0 || weekDays.includes(day.weekday));
}

/** "the 2nd weekday", "the last Friday", "the 1st weekend day", "the last day" of the month. */
function ordinalRule(timed: DigestTimedConfig): DayMatcher {
  const position = ORDINALS[String(timed.ordinal ?? '')];
  const value = String(timed.ordinalValue ?? 'day').toLowerCase();
  if (position === undefined) {
    throw new InvalidDigestError('invalid_digest_configuration', `Invalid ordinal "${timed.ordinal}" for a monthly digest`, {
      ordinal: timed.ordinal,
    });
  }
  let qualifies: (day: DateTime) => boolean;
  if (value === 'day') qualifies = () => true;
  else if (value === 'weekday') qualifies = (d) => d.weekday <= 5;
  else if (value === 'weekend') qualifies = (d) => d.weekday >= 6;
  else if (WEEKDAY_NUMBER[value]) qualifies = (d) => d.weekday === WEEKDAY_NUMBER[value];
  else {
    throw new InvalidDigestError('invalid_digest_configuration', `Invalid ordinalValue "${timed.ordinalValue}" for a monthly digest`, {
      ordinalValue: timed.ordinalValue,
    });
  }
  return (day) => {
    const monthStart = day.startOf('month');
    const matching: number[] = [];
    for (let d = monthStart; d.month === monthStart.month; d = d.plus({ days: 1 })) if (qualifies(d)) matching.push(d.day);
    const chosen = position > 0 ? matching[position - 1] : matching[matching.length - 1];
    return chosen === day.day;
  };
}
