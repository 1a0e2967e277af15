import { containsPattern } from './sql-cursor-page';
import type { SqlClient } from '../sql-client';
import { TrigramStatistics, prefilterPattern } from './trigram-prefilter';

const commonOf =
  (...trigrams: string[]) =>
  (trigram: string) =>
    trigrams.includes(trigram);

/** ILIKE of an ASCII text against a backslash-escaped pattern. */
function ilike(text: string, pattern: string): boolean {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') source += (pattern[++i] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') source += '[\\s\\S]*';
    else if (c === '_') source += '[\\s\\S]';
    else source += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'i').test(text);
}

describe('prefilterPattern', () => {
  it("leaves out the bench names' common trigrams, keeping the selective ones with their padding", () => {
    const common = commonOf('fir', 'irs', 'rst', 'st4', '  l', ' la', 'las', 'ast', 'st7');
    // "t456789 " keeps t45…"89 " (the space after 9 is its padding); "t789" keeps t78, 789.
    expect(prefilterPattern('First456789 Last789', common)).toBe('%t456789 %t789%');
  });

  it('a padded trigram needs the non-word character before it: leaving out "  l" leaves " lo" out too', () => {
    expect(prefilterPattern('ada lovelace', commonOf('  l'))).toBe('%ada %lovelace%');
    expect(prefilterPattern('ada lovelace', commonOf('ada'))).toBe('%da lovelace%');
  });

  it('is null when no trigram is common, or every one is', () => {
    expect(prefilterPattern('First456789 Last789', commonOf())).toBeNull();
    expect(prefilterPattern('first', commonOf('fir', 'irs', 'rst'))).toBeNull();
    expect(prefilterPattern('ab', commonOf('ab'))).toBeNull();
  });

  it('never lets two pieces share a character: a trigram overlapping the last piece by one is dropped', () => {
    // abc and cde share the c; bcd is common: "abc" alone, then nothing that starts after it.
    expect(prefilterPattern('abcde', commonOf('bcd'))).toBe('%abc%');
  });

  it('keeps wildcards and backslashes literal', () => {
    expect(prefilterPattern('50%_off\\deal', commonOf('off'))).toBe('%50\\%\\_of%\\\\deal%');
  });

  it('leaves non-ASCII values alone (case mapping may depend on the neighbours)', () => {
    expect(prefilterPattern('ΟΔΥΣΣΕΑΣ', () => true)).toBeNull();
  });

  it('every text containing the value matches the prefilter', () => {
    const alphabet = 'aAb1 %_\\-';
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const text = (length: number) => Array.from({ length }, () => alphabet[random(alphabet.length)]).join('');
    for (let round = 0; round < 2000; round++) {
      const value = text(1 + random(12));
      const commonTrigrams = new Set(Array.from({ length: 4 }, () => text(3).toLowerCase()));
      const prefilter = prefilterPattern(value, (trigram) => commonTrigrams.has(trigram) || random(3) === 0);
      if (prefilter === null) continue;
      const haystack = `${text(random(4))}${value}${text(random(4))}`;
      expect({ value, haystack, matches: ilike(haystack, containsPattern(value)) }).toMatchObject({ matches: true });
      expect({ value, prefilter, haystack, matches: ilike(haystack, prefilter) }).toMatchObject({ matches: true });
    }
  });
});

describe('TrigramStatistics', () => {
  const NAME = 'subscribers_name_trigrams';
  const analysed = [{ name: NAME, trigrams: ['fir'], shares: [0.5] }];
  /** A store whose statistics reads give `answers` in turn (an Error is thrown). */
  function store(...answers: (object[] | Error)[]) {
    const query = jest.fn(async () => {
      const answer = answers.shift();
      if (answer instanceof Error) throw answer;
      return answer ?? analysed;
    });
    return { sql: { query } as unknown as SqlClient, query };
  }
  const failure = (code: string) => Object.assign(new Error('SELECT statistics_name AS: failed'), { code });

  it('reads the statistics once per five minutes', async () => {
    let now = 0;
    const { sql, query } = store(analysed, analysed);
    const statistics = new TrigramStatistics(sql, [NAME], () => now);
    expect((await statistics.commonIn(NAME))('fir')).toBe(true);
    now = 299_000;
    await statistics.commonIn(NAME);
    expect(query).toHaveBeenCalledTimes(1);
    now = 301_000;
    await statistics.commonIn(NAME);
    expect(query).toHaveBeenCalledTimes(2);
  });

  it('after a read that failed for a passing reason, searches use plain patterns for ten seconds, then read again', async () => {
    let now = 0;
    const { sql, query } = store(failure('57P01'), analysed);
    const statistics = new TrigramStatistics(sql, [NAME], () => now);
    expect((await statistics.commonIn(NAME))('fir')).toBe(false);
    now = 9_000;
    expect((await statistics.commonIn(NAME))('fir')).toBe(false);
    expect(query).toHaveBeenCalledTimes(1);
    now = 11_000;
    expect((await statistics.commonIn(NAME))('fir')).toBe(true);
    expect(query).toHaveBeenCalledTimes(2);
  });

  it('a server without the statistics view (PostgreSQL before 14) is asked again only after five minutes', async () => {
    let now = 0;
    const { sql, query } = store(failure('42P01'));
    const statistics = new TrigramStatistics(sql, [NAME], () => now);
    expect((await statistics.commonIn(NAME))('fir')).toBe(false);
    now = 60_000;
    await statistics.commonIn(NAME);
    expect(query).toHaveBeenCalledTimes(1);
  });
});
