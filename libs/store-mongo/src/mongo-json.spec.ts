import { escapeKey, fromStoredJson, storedJsonPath, toStoredJson, unescapeKey } from './mongo-json';

describe('caller JSON as documents hold it', () => {
  it('escapes the characters MongoDB reads as paths or operators, and nothing else', () => {
    expect(escapeKey('plain_key-1')).toBe('plain_key-1');
    expect(escapeKey('user.name')).toBe('user%2Ename');
    expect(escapeKey('$set')).toBe('%24set');
    expect(escapeKey('50%')).toBe('50%25');
    expect(escapeKey('')).toBe('%');
    for (const key of ['user.name', '$set', '50%', '', '%2E', 'a.$b%c', 'ünïcode 🎉']) expect(unescapeKey(escapeKey(key))).toBe(key);
  });

  it('round-trips any JSON, keys of every shape included', () => {
    const value = {
      'a.b': { $where: 1, nested: [{ '%': true, '': null }] },
      list: [1, 'two', { three: 3.5 }],
      text: 'x',
      empty: {},
      none: [],
    };
    expect(fromStoredJson(toStoredJson(value))).toEqual(value);
  });

  it('stores keys sorted and escaped, so equal values are equal documents whatever the key order', () => {
    const stored = toStoredJson({ b: 1, a: { d: 2, c: 3 }, 'x.y': 4 });
    expect(JSON.stringify(stored)).toBe('{"a":{"c":3,"d":2},"b":1,"x%2Ey":4}');
    expect(JSON.stringify(toStoredJson({ a: { c: 3, d: 2 }, 'x.y': 4, b: 1 }))).toBe(JSON.stringify(stored));
  });

  it('keeps JSON values only, as jsonb does: dates as ISO text, undefined entries dropped', () => {
    const at = new Date('2025-01-02T03:04:05.678Z');
    expect(toStoredJson({ at, gone: undefined, list: [undefined] })).toEqual({ at: '2025-01-02T03:04:05.678Z', list: [null] });
    expect(toStoredJson(undefined)).toBeUndefined();
    expect(toStoredJson(null)).toBeNull();
    expect(toStoredJson('text')).toBe('text');
    expect(toStoredJson([{ b: 1, a: 2 }])).toEqual([{ a: 2, b: 1 }]);
  });

  it('reads back dates the driver hands over as they are (fields outside caller JSON)', () => {
    const at = new Date();
    expect(fromStoredJson({ at })).toEqual({ at });
  });

  it('addresses a caller key below a stored field', () => {
    expect(storedJsonPath('payload', 'order.id')).toBe('payload.order%2Eid');
    expect(storedJsonPath('payload', 'plain')).toBe('payload.plain');
  });
});
