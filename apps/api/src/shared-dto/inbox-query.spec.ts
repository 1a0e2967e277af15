import { InvalidRequestError } from '@app/kernel';
import { filterFromQuery, tagsOf } from './inbox-query';

describe('tagsOf', () => {
  it('reads one tag, a list, and one {and: [{or}]} group as any of those tags', () => {
    expect(tagsOf('billing', 'tags')).toEqual(['billing']);
    expect(tagsOf(['billing', 'alerts'], 'tags')).toEqual(['billing', 'alerts']);
    expect(tagsOf({ and: [{ or: ['billing', 'alerts'] }] }, 'tags')).toEqual(['billing', 'alerts']);
  });

  it('reads nothing from an absent value or an empty object (what @novu/api sends for its untyped tags)', () => {
    expect(tagsOf(undefined, 'tags')).toBeUndefined();
    expect(tagsOf({}, 'tags')).toBeUndefined();
  });

  it('refuses several groups, other keys and tags that are not strings', () => {
    expect(() => tagsOf({ and: [{ or: ['a'] }, { or: ['b'] }] }, 'tags')).toThrow(InvalidRequestError);
    expect(() => tagsOf({ or: ['a'] }, 'tags')).toThrow(InvalidRequestError);
    expect(() => tagsOf([1], 'tags')).toThrow(InvalidRequestError);
  });
});

describe('filterFromQuery', () => {
  it('reads createdGte and createdLte as Unix milliseconds, and refuses other values', () => {
    const filter = filterFromQuery(new URLSearchParams('createdGte=1735689600000&createdLte=1735689601000'));
    expect(filter).toMatchObject({ createdGte: new Date(1735689600000), createdLte: new Date(1735689601000) });
    expect(() => filterFromQuery(new URLSearchParams('createdGte=yesterday'))).toThrow(InvalidRequestError);
  });
});
