/** Step metadata for the timing steps, as Novu's schema (`DelayRegularMetadata`, `DigestMetadataDto`, …). */
export const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

export function isTimeUnit(value: unknown): value is TimeUnit {
  return typeof value === 'string' && (TIME_UNITS as readonly string[]).includes(value);
}

const UNIT_MS: Record<TimeUnit, number> = {
  seconds: 1_000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 7 * 86_400_000,
  // Novu counts a month as 30 days.
  months: 30 * 86_400_000,
};

/** `amount` of `unit` in milliseconds; undefined when either is missing or invalid. */
export function durationMs(amount: unknown, unit: unknown): number | undefined {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0 || !isTimeUnit(unit)) return undefined;
  return amount * UNIT_MS[unit];
}

export type DelayType = 'regular' | 'scheduled' | 'timed' | 'dynamic';

export interface DelayMetadata {
  type?: DelayType | string;
  amount?: number;
  unit?: TimeUnit | string;
  /** scheduled: payload path of an ISO-8601 date. */
  delayPath?: string;
  /** timed: a cron expression, evaluated in the subscriber's timezone. */
  cron?: string;
  /** dynamic: a path (`payload.sendAt`) to an ISO date or `{amount, unit}`. */
  dynamicKey?: string;
}

export type DigestType = 'regular' | 'backoff' | 'timed';
export const WEEK_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];
export type Ordinal = '1' | '2' | '3' | '4' | '5' | 'last';
export type OrdinalValue = 'day' | 'weekday' | 'weekend' | WeekDay;

export interface DigestTimedConfig {
  /** `HH:mm`, `HH:mm:ss` or `hh:mm AM`. */
  atTime?: string;
  weekDays?: (WeekDay | string)[];
  monthDays?: (number | string)[];
  ordinal?: Ordinal | string;
  ordinalValue?: OrdinalValue | string;
  monthlyType?: 'each' | 'on' | string;
  cronExpression?: string;
  untilDate?: string;
}

export interface DigestMetadata {
  type?: DigestType | string;
  amount?: number;
  unit?: TimeUnit | string;
  /** A payload path; events with the same value share one digest. */
  digestKey?: string;
  backoff?: boolean;
  backoffAmount?: number;
  backoffUnit?: TimeUnit | string;
  updateMode?: boolean;
  timed?: DigestTimedConfig;
  /** v2 style timed digest. */
  cron?: string;
}

/** `overrides.delay` on a trigger replaces a regular delay / digest window. */
export interface TimingOverrides {
  delay?: { amount?: unknown; unit?: unknown } | unknown;
  [key: string]: unknown;
}

/** Novu's system limit on any deferral (delay or digest): 180 days. */
export const MAX_DEFER_DURATION_MS = 180 * 86_400_000;
