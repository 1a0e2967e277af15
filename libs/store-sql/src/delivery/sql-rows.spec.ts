import { isoTime } from './sql-rows';

describe('isoTime', () => {
  it('writes a time as JSON.stringify would, absent values left out and invalid ones null', () => {
    const times = [new Date('2024-06-01T12:34:56.789Z'), new Date('2024-06-01T12:34:56.789Z'), new Date(0), new Date('2024-06-01T12:34:56.789Z')];
    for (const time of times) expect(isoTime(time)).toBe(JSON.parse(JSON.stringify(time)));
    expect(isoTime(new Date('not a date'))).toBeNull();
    expect(isoTime(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    expect(isoTime(undefined)).toBeUndefined();
  });

  it('never answers one instant with the text of another that shares its slot', () => {
    const base = Date.UTC(2024, 5, 1);
    const instants = [0, 64, 128, 1, 65, 0, -64, 64 * 1024, 0].map((offset) => new Date(base + offset));
    for (let round = 0; round < 2; round++) for (const time of instants) expect(isoTime(time)).toBe(time.toISOString());
    expect(isoTime(new Date(-1))).toBe('1969-12-31T23:59:59.999Z'); // before 1970: a negative slot index would be wrong
  });
});
