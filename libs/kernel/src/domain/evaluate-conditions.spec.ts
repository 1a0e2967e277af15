import { Condition, ConditionPart, PreviousStepConditionPart, PreviousStepState } from './conditions';
import { evaluateConditions, readPath } from './evaluate-conditions';

const vars = {
  payload: {
    name: 'Ada Lovelace',
    count: 10,
    countText: '10',
    vip: true,
    tags: ['a', 'b', 'c'],
    nested: { deep: { value: 'x' } },
    'dotted.key': 'dk',
    created: '2024-05-10T00:00:00Z',
    nothing: null,
  },
  subscriber: { email: 'ada@example.com', data: { plan: 'pro' } },
  tenant: { identifier: 'acme', data: { region: 'eu' } },
};

function part(field: string, operator: string, value: unknown, on = 'payload'): ConditionPart {
  return { field, operator, value: value as string, on };
}

function one(p: ConditionPart): boolean {
  return evaluateConditions([{ value: 'AND', children: [p] }], vars).passed;
}

describe('evaluateConditions', () => {
  it('passes an empty list, a missing list and a filter without children', () => {
    expect(evaluateConditions([], vars)).toEqual({ passed: true, details: [] });
    expect(evaluateConditions(undefined, vars).passed).toBe(true);
    expect(evaluateConditions([{ value: 'AND', children: [] }], vars).passed).toBe(true);
  });

  it('ORs several filters and combines children by AND / OR', () => {
    const yes = part('count', 'EQUAL', '10');
    const no = part('count', 'EQUAL', '11');
    expect(evaluateConditions([{ value: 'AND', children: [yes, no] }], vars).passed).toBe(false);
    expect(evaluateConditions([{ value: 'OR', children: [yes, no] }], vars).passed).toBe(true);
    expect(
      evaluateConditions(
        [
          { value: 'AND', children: [no] },
          { value: 'AND', children: [yes] },
        ],
        vars,
      ).passed,
    ).toBe(true);
    expect(
      evaluateConditions(
        [
          { value: 'AND', children: [no] },
          { value: 'OR', children: [no] },
        ],
        vars,
      ).passed,
    ).toBe(false);
  });

  it('negates a filter with isNegated', () => {
    const filter: Condition = { isNegated: true, value: 'AND', children: [part('count', 'EQUAL', '10')] };
    expect(evaluateConditions([filter], vars).passed).toBe(false);
    expect(evaluateConditions([{ ...filter, children: [part('count', 'EQUAL', '1')] }], vars).passed).toBe(true);
  });

  it('reports every check with field, expected, actual, operator and passed', () => {
    const result = evaluateConditions([{ value: 'OR', children: [part('count', 'LARGER', '5'), part('plan', 'EQUAL', 'free', 'subscriber')] }], vars);
    expect(result.passed).toBe(true);
    expect(result.details).toEqual([
      { filter: 'payload', field: 'count', expected: '5', actual: 10, operator: 'LARGER', passed: true },
      { filter: 'subscriber', field: 'plan', expected: 'free', actual: undefined, operator: 'EQUAL', passed: false },
    ]);
  });

  it('reads subscriber and tenant sources with dot paths', () => {
    expect(one(part('data.plan', 'EQUAL', 'pro', 'subscriber'))).toBe(true);
    expect(one(part('data.region', 'EQUAL', 'eu', 'tenant'))).toBe(true);
    expect(one(part('nested.deep.value', 'EQUAL', 'x'))).toBe(true);
    expect(one(part('dotted.key', 'EQUAL', 'dk'))).toBe(true);
  });

  it('coerces the expected value to the actual value type', () => {
    expect(one(part('count', 'EQUAL', '10'))).toBe(true);
    expect(one(part('vip', 'EQUAL', 'true'))).toBe(true);
    expect(one(part('vip', 'EQUAL', 'false'))).toBe(false);
    expect(one(part('countText', 'EQUAL', 10))).toBe(true);
    expect(one(part('count', 'NOT_EQUAL', '11'))).toBe(true);
    expect(one(part('missing', 'NOT_EQUAL', 'x'))).toBe(true);
  });

  it('orders numbers numerically (numeric strings too) and other strings lexically', () => {
    expect(one(part('count', 'LARGER', '9'))).toBe(true);
    expect(one(part('countText', 'LARGER', '9'))).toBe(true);
    expect(one(part('count', 'SMALLER', '9'))).toBe(false);
    expect(one(part('count', 'LARGER_EQUAL', '10'))).toBe(true);
    expect(one(part('count', 'SMALLER_EQUAL', '10'))).toBe(true);
    expect(one(part('count', 'SMALLER_EQUAL', '9.5'))).toBe(false);
    expect(one(part('created', 'LARGER', '2024-01-01'))).toBe(true);
    expect(one(part('missing', 'LARGER', '1'))).toBe(false);
    expect(one(part('count', 'LARGER', 'abc'))).toBe(false);
  });

  it('IN / NOT_IN: one of a list, or (as Novu) an array or string field containing the value', () => {
    expect(one(part('count', 'IN', '1,10,100'))).toBe(true);
    expect(one(part('name', 'IN', '["Ada Lovelace","Bob"]'))).toBe(true);
    expect(one(part('tags', 'IN', 'b'))).toBe(true);
    expect(one(part('name', 'IN', 'Lovelace'))).toBe(true);
    expect(one(part('tags', 'IN', 'z'))).toBe(false);
    expect(one(part('count', 'NOT_IN', '1,2'))).toBe(true);
    expect(one(part('tags', 'NOT_IN', 'a'))).toBe(false);
    expect(one(part('missing', 'IN', 'a'))).toBe(false);
    expect(one(part('missing', 'NOT_IN', 'a'))).toBe(true);
  });

  it('IS_DEFINED, with "false" asking for absence', () => {
    expect(one(part('name', 'IS_DEFINED', ''))).toBe(true);
    expect(one(part('missing', 'IS_DEFINED', ''))).toBe(false);
    expect(one(part('nothing', 'IS_DEFINED', ''))).toBe(false);
    expect(one(part('missing', 'IS_DEFINED', 'false'))).toBe(true);
  });

  it('ALL_IN and ANY_IN on arrays', () => {
    expect(one(part('tags', 'ALL_IN', 'a,c'))).toBe(true);
    expect(one(part('tags', 'ALL_IN', 'a,z'))).toBe(false);
    expect(one(part('tags', 'ANY_IN', 'z,c'))).toBe(true);
    expect(one(part('tags', 'ANY_IN', '["y","z"]'))).toBe(false);
    expect(one(part('name', 'ANY_IN', 'Bob,Ada Lovelace'))).toBe(true);
    expect(one(part('missing', 'ANY_IN', 'a'))).toBe(false);
  });

  it('BETWEEN / NOT_BETWEEN are inclusive ranges', () => {
    expect(one(part('count', 'BETWEEN', '5,10'))).toBe(true);
    expect(one(part('count', 'BETWEEN', '[11, 20]'))).toBe(false);
    expect(one(part('count', 'NOT_BETWEEN', '11,20'))).toBe(true);
    expect(one(part('created', 'BETWEEN', '2024-01-01,2024-12-31'))).toBe(true);
    expect(one(part('count', 'BETWEEN', '5'))).toBe(false);
  });

  it('LIKE / NOT_LIKE: substring, or a % pattern, case-insensitive', () => {
    expect(one(part('name', 'LIKE', 'love'))).toBe(true);
    expect(one(part('name', 'LIKE', 'ada%'))).toBe(true);
    expect(one(part('name', 'LIKE', '%lace'))).toBe(true);
    expect(one(part('name', 'LIKE', 'a_a%'))).toBe(true);
    expect(one(part('name', 'LIKE', 'bob%'))).toBe(false);
    expect(one(part('email', 'LIKE', '%@example.com', 'subscriber'))).toBe(true);
    expect(one(part('name', 'NOT_LIKE', 'bob'))).toBe(true);
    expect(one(part('missing', 'LIKE', 'x'))).toBe(false);
  });

  it('fails an unknown operator instead of throwing', () => {
    expect(one(part('name', 'SOUNDS_LIKE', 'x'))).toBe(false);
  });

  it('renders values through resolveValue before comparing', () => {
    const result = evaluateConditions([{ value: 'AND', children: [part('name', 'EQUAL', '{{who}}')] }], vars, {
      resolveValue: (v) => v.replace('{{who}}', 'Ada Lovelace'),
    });
    expect(result.passed).toBe(true);
    expect(result.details[0].expected).toBe('Ada Lovelace');
  });
});

describe('evaluateConditions: previous-step parts', () => {
  const previous = (stepType: PreviousStepState, step = 'uuid-1'): PreviousStepConditionPart => ({ on: 'previousStep', step, stepType });
  const check = (p: PreviousStepConditionPart, state: { seen: boolean; read: boolean } | undefined) =>
    evaluateConditions([{ value: 'AND', children: [p] }], { ...vars, previousSteps: state ? { [p.step]: state } : {} });

  it('passes read / seen on the state of the step it names, and unread / unseen on its opposite', () => {
    const readAndSeen = { seen: true, read: true };
    const seenOnly = { seen: true, read: false };
    const neither = { seen: false, read: false };
    expect([readAndSeen, seenOnly, neither].map((state) => check(previous('read'), state).passed)).toEqual([true, false, false]);
    expect([readAndSeen, seenOnly, neither].map((state) => check(previous('unread'), state).passed)).toEqual([false, true, true]);
    expect([readAndSeen, seenOnly, neither].map((state) => check(previous('seen'), state).passed)).toEqual([true, true, false]);
    expect([readAndSeen, seenOnly, neither].map((state) => check(previous('unseen'), state).passed)).toEqual([false, false, true]);
  });

  it('passes, as Novu, when the step it names sent nothing in this notification', () => {
    expect(check(previous('read'), undefined).passed).toBe(true);
    expect(check(previous('unseen'), undefined).passed).toBe(true);
  });

  it("records the check Novu's way (the state as field, expected true) with the step's uuid", () => {
    expect(check(previous('read'), { seen: true, read: false }).details).toEqual([
      { filter: 'previousStep', field: 'read', expected: 'true', actual: 'false', operator: 'EQUAL', passed: false, step: 'uuid-1' },
    ]);
  });

  it('combines with field parts, groups and negation like any part', () => {
    const children = [previous('read'), part('count', 'EQUAL', '10')];
    const variables = { ...vars, previousSteps: { 'uuid-1': { seen: true, read: false } } };
    expect(evaluateConditions([{ value: 'AND', children }], variables).passed).toBe(false);
    expect(evaluateConditions([{ value: 'OR', children }], variables).passed).toBe(true);
    expect(evaluateConditions([{ value: 'AND', isNegated: true, children: [previous('read')] }], variables).passed).toBe(true);
  });
});

describe('readPath', () => {
  it('reads nested keys, array indexes and returns undefined for missing parts', () => {
    expect(readPath({ a: { b: [{ c: 1 }] } }, 'a.b.0.c')).toBe(1);
    expect(readPath({ a: 1 }, 'a.b')).toBeUndefined();
    expect(readPath({ a: null }, 'a.b')).toBeUndefined();
    expect(readPath({}, 'toString')).toBeUndefined();
  });
});
