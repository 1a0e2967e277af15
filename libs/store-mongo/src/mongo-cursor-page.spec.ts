import { CursorRequest } from '@app/kernel';
import { allOf, beyond, containsIgnoringCase, cursorPagePlan } from './mongo-cursor-page';

const request = (overrides: Partial<CursorRequest> = {}): CursorRequest => ({ limit: 10, includeCursor: false, orderDirection: 'DESC', ...overrides });
const base = { environmentId: 'e1' };
const at = new Date('2025-01-01T00:00:00.000Z');

describe('cursor positions', () => {
  it('compares (field, _id) pairs: strictly, or taking the pivot with includeCursor', () => {
    expect(beyond('createdAt', { value: at, id: 'b' }, '>', false)).toEqual({ $or: [{ createdAt: { $gt: at } }, { createdAt: at, _id: { $gt: 'b' } }] });
    expect(beyond('createdAt', { value: at, id: 'b' }, '<', true)).toEqual({ $or: [{ createdAt: { $lt: at } }, { createdAt: at, _id: { $lte: 'b' } }] });
    expect(beyond('key', { value: 'k', id: 'b' }, '>', true)).toEqual({ $or: [{ key: { $gt: 'k' } }, { key: 'k', _id: { $gte: 'b' } }] });
  });

  it('compares ids alone when the list is sorted by id', () => {
    expect(beyond('_id', { value: 'b', id: 'b' }, '<', false)).toEqual({ _id: { $lt: 'b' } });
    expect(beyond('_id', { value: 'b', id: 'b' }, '>', true)).toEqual({ _id: { $gte: 'b' } });
  });

  it('matches nothing beyond an unknown cursor, as SQL compares with NULL', () => {
    expect(beyond('createdAt', null, '>', false)).toEqual({ _id: { $in: [] } });
  });
});

describe('cursorPagePlan', () => {
  it('a first page: the filter, newest first, one row more than the limit', () => {
    const plan = cursorPagePlan(base, '_id', request(), {});
    expect(plan.page).toEqual({ filter: base, sort: { _id: -1 }, limit: 11 });
    expect(plan.backwards).toBe(false);
    expect(plan.countFilter).toBe(base);
  });

  it('after a cursor: the rows past it in the requested order, ascending or descending', () => {
    const pivot = { value: at, id: 'c' };
    const descending = cursorPagePlan(base, 'createdAt', request({ after: 'c' }), { after: pivot });
    expect(descending.page).toEqual({
      filter: { $and: [base, { $or: [{ createdAt: { $lt: at } }, { createdAt: at, _id: { $lt: 'c' } }] }] },
      sort: { createdAt: -1, _id: -1 },
      limit: 11,
    });
    const ascending = cursorPagePlan(base, 'updatedAt', request({ after: 'c', orderDirection: 'ASC', includeCursor: true, limit: 2 }), { after: pivot });
    expect(ascending.page).toEqual({
      filter: { $and: [base, { $or: [{ updatedAt: { $gt: at } }, { updatedAt: at, _id: { $gte: 'c' } }] }] },
      sort: { updatedAt: 1, _id: 1 },
      limit: 3,
    });
  });

  it('before a cursor: reads backwards (reversed sort), to be put back in order once read', () => {
    const plan = cursorPagePlan(base, 'key', request({ before: 'c', orderDirection: 'ASC' }), { before: { value: 'k', id: 'c' } });
    expect(plan.backwards).toBe(true);
    expect(plan.page).toEqual({
      filter: { $and: [base, { $or: [{ key: { $lt: 'k' } }, { key: 'k', _id: { $lt: 'c' } }] }] },
      sort: { key: -1, _id: -1 },
      limit: 11,
    });
  });

  it('probes for rows past either end of the page, for next and previous', () => {
    const plan = cursorPagePlan(base, '_id', request(), {});
    expect(plan.probe({ value: 'x', id: 'x' }, true)).toEqual({ $and: [base, { _id: { $lt: 'x' } }] });
    expect(plan.probe({ value: 'x', id: 'x' }, false)).toEqual({ $and: [base, { _id: { $gt: 'x' } }] });
  });
});

describe('filters', () => {
  it('combine conditions, leaving out empty ones', () => {
    expect(allOf()).toEqual({});
    expect(allOf({ a: 1 }, {})).toEqual({ a: 1 });
    expect(allOf({ a: 1 }, { b: 2 })).toEqual({ $and: [{ a: 1 }, { b: 2 }] });
  });

  it('match a case-insensitive substring with the caller’s regex characters taken literally', () => {
    expect(containsIgnoringCase('a.b*(c)%_')).toEqual({ $regex: 'a\\.b\\*\\(c\\)%_', $options: 'i' });
    const { $regex } = containsIgnoringCase('grace%hopper');
    expect(new RegExp($regex, 'i').test('GRACE%HOPPER@example.org')).toBe(true);
    expect(new RegExp(containsIgnoringCase('alan_t').$regex, 'i').test('alanXt@example.com')).toBe(false);
  });
});
