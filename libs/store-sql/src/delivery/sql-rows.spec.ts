import { isoTime } from './sql-rows';

describe('isoTime', () => {
  it('writes a time as JSON.stringify would, absent values left out and invalid ones null', () => {
    const times = [new Date('2024-06-01T12:34:56.789Z'), new Date('2024-06-01T12:34:56.789Z'), new Date(0), new Date('2024-06-01T12:34:56.789Z')];
    for (const time of times) expect(isoTime(time)).toBe(JSON.parse(JSON.stringify(time)));
    expect(isoTime(new Date('not a date'))).toBeNull();
    expect(isoTime(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(isoTime(undefined)).toBeUndefined();
  });
});
