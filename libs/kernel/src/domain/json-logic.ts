import { sub } from 'date-fns/sub';
import jsonLogic, { RulesLogic } from 'json-logic-js';

/**
 * JSON Logic with the operations Novu's dashboard conditions use beside the standard ones (string,
 * list, range, null and relative-date tests) and its type-tolerant comparisons: `"true"` equals
 * `true`, numeric strings compare as numbers, date strings as dates. json-logic-js keeps one registry
 * per process, so every JSON Logic evaluation here sees them, as in Novu.
 */

const RELATIVE_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months', 'years'] as const;
type RelativeUnit = (typeof RELATIVE_UNITS)[number];

/** How far from "exactly X ago" a date may be and still match, per unit. */
const EXACT_TOLERANCE_MS: Record<RelativeUnit, number> = {
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 86_400_000,
  months: 86_400_000,
  years: 7 * 86_400_000,
};

/** The time relative-date operations count from; set for the length of one evaluation. */
let evaluationTime: Date | undefined;

type Comparable = number | boolean;

function asBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : value;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isNaN(number) ? undefined : number;
}

function asTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : time;
}

/** Both sides as booleans, numbers or dates, whichever both can be; undefined when none fits. */
function comparable(a: unknown, b: unknown): [Comparable, Comparable] | undefined {
  for (const read of [asBoolean, asNumber, asTime] as ((value: unknown) => Comparable | undefined)[]) {
    const left = read(a);
    const right = read(b);
    if (left !== undefined && right !== undefined) return [left, right];
  }
  return undefined;
}

const compare =
  (test: (a: Comparable, b: Comparable) => boolean) =>
  (a: unknown, b: unknown): boolean => {
    const pair = comparable(a, b);
    return pair ? test(pair[0], pair[1]) : false;
  };

function equals(a: unknown, b: unknown): boolean {
  const pair = comparable(a, b);
  return pair ? pair[0] === pair[1] : a === b;
}

const onStrings =
  (test: (input: string, value: string) => boolean) =>
  (input: unknown, value: unknown): boolean =>
    typeof input === 'string' && typeof value === 'string' && test(input, value);

const onLists =
  (test: (input: unknown[], value: unknown[]) => boolean) =>
  (input: unknown, value: unknown): boolean =>
    Array.isArray(input) && Array.isArray(value) && test(input, value);

function range(input: unknown, bounds: unknown): { input: number; min: number; max: number } | undefined {
  if (typeof input !== 'number' || !Array.isArray(bounds) || bounds.length !== 2) return undefined;
  const [min, max] = bounds as unknown[];
  return typeof min === 'number' && typeof max === 'number' ? { input, min, max } : undefined;
}

/** `input` as a time and the moment `{amount, unit}` before now; undefined when either cannot be read. */
function relative(input: unknown, value: unknown): { at: number; boundary: number; now: number; unit: RelativeUnit } | undefined {
  const { amount, unit } = (value ?? {}) as { amount?: unknown; unit?: unknown };
  if (typeof amount !== 'number' || amount <= 0 || !RELATIVE_UNITS.includes(unit as RelativeUnit)) return undefined;
  const at = typeof input === 'string' || typeof input === 'number' ? new Date(input).getTime() : NaN;
  if (Number.isNaN(at)) return undefined;
  const now = evaluationTime ?? new Date();
  return { at, boundary: sub(now, { [unit as RelativeUnit]: amount }).getTime(), now: now.getTime(), unit: unit as RelativeUnit };
}

const onRelative =
  (test: (date: NonNullable<ReturnType<typeof relative>>) => boolean) =>
  (input: unknown, value: unknown): boolean => {
    const date = relative(input, value);
    return date ? test(date) : false;
  };

const OPERATIONS: Record<string, (...args: unknown[]) => boolean> = {
  '==': equals,
  '=': equals,
  '!=': (a, b) => !equals(a, b),
  '<': compare((a, b) => a < b),
  '>': compare((a, b) => a > b),
  '>=': compare((a, b) => a >= b),
  // three arguments: the middle one lies between the others
  '<=': (a, b, c) => (c === undefined ? compare((x, y) => x <= y)(a, b) : compare((x, y) => x <= y)(a, b) && compare((x, y) => x <= y)(b, c)),
  startsWith: onStrings((input, value) => input.startsWith(value)),
  endsWith: onStrings((input, value) => input.endsWith(value)),
  contains: onStrings((input, value) => input.includes(value)),
  doesNotContain: onStrings((input, value) => !input.includes(value)),
  doesNotBeginWith: onStrings((input, value) => !input.startsWith(value)),
  doesNotEndWith: onStrings((input, value) => !input.endsWith(value)),
  containsAny: onLists((input, value) => input.some((item) => value.includes(item))),
  doesNotContainAny: onLists((input, value) => !input.some((item) => value.includes(item))),
  null: (input) => input === null,
  notNull: (input) => input !== null,
  notIn: (input, list) => Array.isArray(list) && !list.includes(input),
  between: (input, bounds) => {
    const r = range(input, bounds);
    return r ? r.input >= r.min && r.input <= r.max : false;
  },
  notBetween: (input, bounds) => {
    const r = range(input, bounds);
    return r ? r.input < r.min || r.input > r.max : false;
  },
  moreThanXAgo: onRelative(({ at, boundary }) => at < boundary),
  lessThanXAgo: onRelative(({ at, boundary }) => at >= boundary),
  withinLast: onRelative(({ at, boundary, now }) => at >= boundary && at <= now),
  notWithinLast: onRelative(({ at, boundary }) => at < boundary),
  exactlyXAgo: onRelative(({ at, boundary, unit }) => Math.abs(at - boundary) <= EXACT_TOLERANCE_MS[unit]),
};

for (const [name, operation] of Object.entries(OPERATIONS)) jsonLogic.add_operation(name, operation);

/** The value of a JSON Logic rule for `data`; throws on an operation it does not know. `now` is what relative dates count from. */
export function applyJsonLogic(rule: unknown, data: unknown, now?: Date): unknown {
  evaluationTime = now;
  try {
    return jsonLogic.apply(rule as RulesLogic, data);
  } finally {
    evaluationTime = undefined;
  }
}

/** Each `{"var": path}` the rule reads, with its value in `data`: what a record of the evaluation shows. */
export function jsonLogicVariables(rule: unknown, data: unknown): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const path = key === 'var' ? (Array.isArray(value) ? value[0] : value) : undefined;
      if (typeof path === 'string') values[path] = jsonLogic.apply({ var: path }, data);
      else visit(value);
    }
  };
  visit(rule);
  return values;
}
