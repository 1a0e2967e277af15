import { applyJsonLogic, jsonLogicVariables } from './json-logic';

describe('applyJsonLogic', () => {
  const data = { payload: { plan: 'pro', count: 5, flag: 'true', tags: ['a', 'b'], at: '2030-01-10T00:00:00.000Z', none: null } };

  it('compares across types as Novu does: boolean strings, numeric strings, dates; strictly otherwise', () => {
    expect(applyJsonLogic({ '==': [{ var: 'payload.count' }, '5'] }, data)).toBe(true);
    expect(applyJsonLogic({ '==': [{ var: 'payload.flag' }, true] }, data)).toBe(true);
    expect(applyJsonLogic({ '!=': [{ var: 'payload.plan' }, 'free'] }, data)).toBe(true);
    expect(applyJsonLogic({ '>': [{ var: 'payload.count' }, '4'] }, data)).toBe(true);
    expect(applyJsonLogic({ '<': [{ var: 'payload.at' }, '2030-02-01'] }, data)).toBe(true);
    expect(applyJsonLogic({ '<=': [1, { var: 'payload.count' }, 9] }, data)).toBe(true);
    expect(applyJsonLogic({ '>': [{ var: 'payload.plan' }, 3] }, data)).toBe(false);
    // null is no number: it equals only null
    expect(applyJsonLogic({ '==': [{ var: 'payload.none' }, 0] }, data)).toBe(false);
    expect(applyJsonLogic({ '==': [{ var: 'payload.none' }, null] }, data)).toBe(true);
  });

  it("knows the dashboard's string, list, range and null operations", () => {
    expect(applyJsonLogic({ startsWith: [{ var: 'payload.plan' }, 'pr'] }, data)).toBe(true);
    expect(applyJsonLogic({ doesNotEndWith: [{ var: 'payload.plan' }, 'o'] }, data)).toBe(false);
    expect(applyJsonLogic({ contains: [{ var: 'payload.plan' }, 'r'] }, data)).toBe(true);
    expect(applyJsonLogic({ contains: [{ var: 'payload.count' }, '5'] }, data)).toBe(false);
    expect(applyJsonLogic({ containsAny: [{ var: 'payload.tags' }, ['b', 'c']] }, data)).toBe(true);
    expect(applyJsonLogic({ doesNotContainAny: [{ var: 'payload.tags' }, ['c']] }, data)).toBe(true);
    expect(applyJsonLogic({ notIn: [{ var: 'payload.plan' }, ['free', 'basic']] }, data)).toBe(true);
    expect(applyJsonLogic({ between: [{ var: 'payload.count' }, [1, 5]] }, data)).toBe(true);
    expect(applyJsonLogic({ notBetween: [{ var: 'payload.count' }, [6, 9]] }, data)).toBe(true);
    expect(applyJsonLogic({ null: [{ var: 'payload.none' }] }, data)).toBe(true);
    expect(applyJsonLogic({ notNull: [{ var: 'payload.plan' }] }, data)).toBe(true);
    expect(applyJsonLogic({ and: [{ '==': [{ var: 'payload.plan' }, 'pro'] }, { in: ['a', { var: 'payload.tags' }] }] }, data)).toBe(true);
  });

  it('tests dates relative to the time given', () => {
    const now = new Date('2030-01-12T00:00:00.000Z');
    expect(applyJsonLogic({ moreThanXAgo: [{ var: 'payload.at' }, { amount: 1, unit: 'days' }] }, data, now)).toBe(true);
    expect(applyJsonLogic({ lessThanXAgo: [{ var: 'payload.at' }, { amount: 1, unit: 'weeks' }] }, data, now)).toBe(true);
    expect(applyJsonLogic({ withinLast: [{ var: 'payload.at' }, { amount: 3, unit: 'days' }] }, data, now)).toBe(true);
    expect(applyJsonLogic({ notWithinLast: [{ var: 'payload.at' }, { amount: 3, unit: 'days' }] }, data, now)).toBe(false);
    expect(applyJsonLogic({ exactlyXAgo: [{ var: 'payload.at' }, { amount: 2, unit: 'days' }] }, data, now)).toBe(true);
    expect(applyJsonLogic({ withinLast: [{ var: 'payload.at' }, { amount: 0, unit: 'days' }] }, data, now)).toBe(false);
  });

  it('throws on an operation it does not know', () => {
    expect(() => applyJsonLogic({ nope: [1] }, data)).toThrow(/Unrecognized operation nope/);
  });
});

describe('jsonLogicVariables', () => {
  it('gives each variable the rule reads with its value', () => {
    const rule = { or: [{ '==': [{ var: 'steps.fetch.plan' }, 'pro'] }, { '>': [{ var: ['payload.count', 0] }, 3] }] };
    expect(jsonLogicVariables(rule, { steps: { fetch: { plan: 'free' } }, payload: { count: 4 } })).toEqual({ 'steps.fetch.plan': 'free', 'payload.count': 4 });
  });
});
