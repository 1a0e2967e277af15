import { ConditionPart, PreviousStepConditionPart, StepCondition, StepConditionPart, isPreviousStepPart } from './conditions';

/**
 * Step filters and integration conditions, evaluated the way Novu's v1 filter does (several filters
 * OR'ed, children by AND/OR, the expected value coerced to the actual value's type), plus the
 * operators Novu declares but never implemented (ALL_IN, ANY_IN, BETWEEN, NOT_BETWEEN, LIKE,
 * NOT_LIKE) and `isNegated`.
 */
export interface ConditionVariables {
  payload?: unknown;
  subscriber?: unknown;
  tenant?: unknown;
  actor?: unknown;
  /**
   * What previous-step parts read: by step uuid, whether the messages that step sent in this
   * notification were seen / read. A step left out (it sent nothing, or never ran) passes, as Novu.
   */
  previousSteps?: Readonly<Record<string, MessageReadState | undefined>>;
  [source: string]: unknown;
}

export interface MessageReadState {
  seen: boolean;
  read: boolean;
}

export interface ConditionCheck {
  /** The `on` source, as Novu's raw execution detail names it. */
  filter: string;
  field: string;
  expected: unknown;
  actual: unknown;
  operator: string;
  passed: boolean;
  /** A previous-step part: the uuid of the step it read. */
  step?: string;
}

export interface ConditionsResult {
  passed: boolean;
  details: ConditionCheck[];
}

export interface EvaluateConditionsOptions {
  /** Renders a condition's value before comparison (Novu compiles it as a template). */
  resolveValue?: (value: string) => string;
}

export function evaluateConditions(
  filters: readonly StepCondition[] | undefined | null,
  variables: ConditionVariables,
  options: EvaluateConditionsOptions = {},
): ConditionsResult {
  const details: ConditionCheck[] = [];
  if (!filters || filters.length === 0) return { passed: true, details };
  let passed = false;
  // Every filter is evaluated (no short-circuit) so the details explain the whole decision.
  for (const filter of filters) {
    if (evaluateFilter(filter, variables, options, details)) passed = true;
  }
  return { passed, details };
}

function evaluateFilter(filter: StepCondition, variables: ConditionVariables, options: EvaluateConditionsOptions, details: ConditionCheck[]): boolean {
  const children = filter.children ?? [];
  let passed: boolean;
  if (children.length === 0) {
    passed = true;
  } else {
    const results = children.map((part) => {
      const check = evaluatePart(part, variables, options);
      details.push(check);
      return check.passed;
    });
    passed = String(filter.value).toUpperCase() === 'OR' ? results.some(Boolean) : results.every(Boolean);
  }
  return filter.isNegated ? !passed : passed;
}

function evaluatePart(part: StepConditionPart, variables: ConditionVariables, options: EvaluateConditionsOptions): ConditionCheck {
  if (isPreviousStepPart(part)) return evaluatePreviousStep(part, variables);
  return evaluateFieldPart(part, variables, options);
}

/** Recorded as Novu records it: the state asked for as the field, expected "true", the outcome as the actual value. */
function evaluatePreviousStep(part: PreviousStepConditionPart, variables: ConditionVariables): ConditionCheck {
  const state = variables.previousSteps?.[part.step];
  const passed = state === undefined || previousStepPasses(part.stepType, state);
  return { filter: 'previousStep', field: part.stepType, expected: 'true', actual: String(passed), operator: 'EQUAL', passed, step: part.step };
}

function previousStepPasses(stepType: string, state: MessageReadState): boolean {
  switch (stepType) {
    case 'seen':
      return state.seen;
    case 'unseen':
      return !state.seen;
    case 'read':
      return state.read;
    case 'unread':
      return !state.read;
    default:
      return false;
  }
}

function evaluateFieldPart(part: ConditionPart, variables: ConditionVariables, options: EvaluateConditionsOptions): ConditionCheck {
  const source = String(part.on ?? 'payload');
  const actual = readPath(variables, `${source}.${part.field}`);
  let expected: unknown = part.value;
  if (typeof expected === 'string' && options.resolveValue) expected = options.resolveValue(expected);
  const operator = String(part.operator ?? 'EQUAL').toUpperCase();
  const passed = applyOperator(operator, actual, expected);
  return { filter: source, field: part.field, expected, actual, operator, passed };
}

/** Reads a dot path (`a.b.0.c`); an own key containing dots wins over descending. */
export function readPath(root: unknown, path: string): unknown {
  if (path === '') return root;
  const segments = path.split('.');
  let current: unknown = root;
  for (let i = 0; i < segments.length; i++) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    const record = current as Record<string, unknown>;
    // Novu payloads sometimes carry keys like "user.name"; try the longest own key first.
    let matched = false;
    for (let j = segments.length; j > i + 1; j--) {
      const joined = segments.slice(i, j).join('.');
      if (Object.prototype.hasOwnProperty.call(record, joined)) {
        current = record[joined];
        i = j - 1;
        matched = true;
        break;
      }
    }
    if (matched) continue;
    const key = segments[i];
    if (!Object.prototype.hasOwnProperty.call(record, key)) return undefined;
    current = record[key];
  }
  return current;
}

function applyOperator(operator: string, actual: unknown, expected: unknown): boolean {
  switch (operator) {
    case 'EQUAL':
      return isEqual(actual, expected);
    case 'NOT_EQUAL':
      return !isEqual(actual, expected);
    case 'LARGER':
      return compare(actual, expected, (c) => c > 0);
    case 'SMALLER':
      return compare(actual, expected, (c) => c < 0);
    case 'LARGER_EQUAL':
      return compare(actual, expected, (c) => c >= 0);
    case 'SMALLER_EQUAL':
      return compare(actual, expected, (c) => c <= 0);
    case 'IN':
      return isIn(actual, expected);
    case 'NOT_IN':
      return !isIn(actual, expected);
    case 'IS_DEFINED': {
      const defined = actual !== undefined && actual !== null;
      return String(expected).toLowerCase() === 'false' ? !defined : defined;
    }
    case 'ALL_IN': {
      const wanted = toList(expected);
      const have = asArray(actual);
      return have !== undefined && wanted.length > 0 && wanted.every((w) => have.some((h) => isEqual(h, w)));
    }
    case 'ANY_IN': {
      const wanted = toList(expected);
      const have = asArray(actual);
      return have !== undefined && wanted.some((w) => have.some((h) => isEqual(h, w)));
    }
    case 'BETWEEN':
      return isBetween(actual, expected);
    case 'NOT_BETWEEN':
      return !isBetween(actual, expected);
    case 'LIKE':
      return isLike(actual, expected);
    case 'NOT_LIKE':
      return !isLike(actual, expected);
    default:
      return false;
  }
}

/** Coerces the expected value to the actual value's type, as Novu does. */
function coerceTo(actual: unknown, expected: unknown): unknown {
  if (actual === undefined || expected === undefined || expected === null) return expected;
  switch (typeof actual) {
    case 'number':
    case 'bigint':
      return typeof expected === 'number' ? expected : Number(expected);
    case 'boolean':
      return typeof expected === 'boolean' ? expected : String(expected).trim().toLowerCase() === 'true';
    case 'string':
      return typeof expected === 'string' ? expected : typeof expected === 'object' ? JSON.stringify(expected) : String(expected);
    default:
      return expected;
  }
}

function isEqual(actual: unknown, expected: unknown): boolean {
  if (actual !== null && typeof actual === 'object') {
    if (typeof expected === 'string') {
      try {
        return JSON.stringify(actual) === JSON.stringify(JSON.parse(expected));
      } catch {
        return false;
      }
    }
    return JSON.stringify(actual) === JSON.stringify(expected);
  }
  if (typeof actual === 'bigint') return Number(actual) === coerceTo(actual, expected);
  return actual === coerceTo(actual, expected);
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** Numbers compare numerically (also numeric strings: "10" > "9"), everything else as strings. */
function compareValues(actual: unknown, expected: unknown): number | undefined {
  if (actual === undefined || actual === null || expected === undefined || expected === null) return undefined;
  const a = toNumber(actual);
  const e = toNumber(expected);
  if (a !== undefined && e !== undefined) return a === e ? 0 : a > e ? 1 : -1;
  if (typeof actual === 'number') return undefined; // a number against a non-number never orders
  if (typeof actual === 'object' || typeof expected === 'object') return undefined;
  const as = String(actual);
  const es = String(expected);
  return as === es ? 0 : as > es ? 1 : -1;
}

function compare(actual: unknown, expected: unknown, accept: (c: number) => boolean): boolean {
  const c = compareValues(actual, expected);
  return c !== undefined && accept(c);
}

/** A list value: a JSON array, an array, or a comma-separated string. */
function toList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('[')) {
      try {
        const parsed = JSON.parse(trimmed);
        if (Array.isArray(parsed)) return parsed;
      } catch {
        // not JSON: fall through to the comma list
      }
    }
    return trimmed === '' ? [] : trimmed.split(',').map((item) => item.trim());
  }
  return [value];
}

function asArray(value: unknown): unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  return Array.isArray(value) ? value : [value];
}

/**
 * IN: the actual value is one of the listed values. Novu's own reading (`actual.includes(value)`,
 * i.e. an array or string field containing the value) is honoured too, so its workflows keep working.
 */
function isIn(actual: unknown, expected: unknown): boolean {
  if (actual === undefined || actual === null) return false;
  if (!Array.isArray(actual) && toList(expected).some((item) => isEqual(actual, item))) return true;
  if (Array.isArray(actual)) return actual.some((item) => isEqual(item, expected));
  if (typeof actual === 'string' && typeof expected === 'string' && expected !== '') return actual.includes(expected);
  return false;
}

/** Inclusive range, given as "min,max" or [min, max]. */
function isBetween(actual: unknown, expected: unknown): boolean {
  const bounds = toList(expected);
  if (bounds.length !== 2) return false;
  const low = compareValues(actual, bounds[0]);
  const high = compareValues(actual, bounds[1]);
  return low !== undefined && high !== undefined && low >= 0 && high <= 0;
}

/**
 * Case-insensitive. With `%` the value is a SQL LIKE pattern (`%` any run, `_` one character);
 * without it, a substring match.
 */
function isLike(actual: unknown, expected: unknown): boolean {
  if (actual === undefined || actual === null || typeof actual === 'object') return false;
  if (expected === undefined || expected === null) return false;
  const text = String(actual).toLowerCase();
  const pattern = String(expected).toLowerCase();
  if (!pattern.includes('%')) return text.includes(pattern);
  const regex = pattern
    .split('')
    .map((ch) => (ch === '%' ? '.*' : ch === '_' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${regex}$`, 's').test(text);
}
