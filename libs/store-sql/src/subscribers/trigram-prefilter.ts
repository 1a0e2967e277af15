import { SqlClient } from '../sql-client';
import { sql } from '../sql-statement';
import { escapeLike } from './sql-cursor-page';

/**
 * A trigram found in more than this share of the searched texts filters little, and its posting list
 * is among the index's longest (in the bench every name holds "fir", "irs", "rst", "las", "ast").
 */
export const COMMON_TRIGRAM_SHARE = 0.1;

/** A trigram of the search string and the characters of the string it needs (padding stands on the neighbouring non-word character). */
interface TrigramWindow {
  trigram: string;
  start: number;
  end: number;
  common: boolean;
}

const WORD_CHARACTER = /[A-Za-z0-9]/;

/**
 * The trigrams pg_trgm extracts from `%value%` (ILIKE, backslash escapes), the way its
 * generate_wildcard_trgm does: per word (a run of letters and digits), lower-cased, two spaces in
 * front when a non-word character precedes it, one behind when one follows; the `%` at both ends
 * give the first and last words no padding. Each trigram spans the characters of `value` it needs.
 */
function trigramWindows(value: string, isCommon: (trigram: string) => boolean): TrigramWindow[] {
  const windows: TrigramWindow[] = [];
  for (let a = 0; a < value.length; a++) {
    if (!WORD_CHARACTER.test(value[a]) || (a > 0 && WORD_CHARACTER.test(value[a - 1]))) continue;
    let b = a;
    while (b < value.length && WORD_CHARACTER.test(value[b])) b++;
    // [character, position in value]: padding stands at the neighbouring non-word character.
    const padded: [string, number][] = [
      ...(a > 0 ? ([' ', ' '] as const).map((c): [string, number] => [c, a - 1]) : []),
      ...[...value.slice(a, b).toLowerCase()].map((c, i): [string, number] => [c, a + i]),
      ...(b < value.length ? [[' ', b] as [string, number]] : []),
    ];
    for (let i = 0; i + 3 <= padded.length; i++) {
      const trigram = padded[i][0] + padded[i + 1][0] + padded[i + 2][0];
      windows.push({ trigram, start: padded[i][1], end: padded[i + 2][1], common: isCommon(trigram) });
    }
    a = b;
  }
  return windows;
}

/**
 * A `LIKE` pattern every text matching `%value%` (ILIKE) also matches, whose pg_trgm trigrams leave
 * out the common ones: `%piece%piece%…%`, the pieces disjoint substrings of `value` in order. Searched
 * beside the exact pattern, it lets the GIN index intersect the selective posting lists first and
 * probe the common ones only at what survives. Null when it would not help: no trigram is common,
 * or every one is. ASCII values only: lower-casing a piece alone gives the same characters as
 * lower-casing the whole value only where case mapping ignores context, which ASCII guarantees.
 */
export function prefilterPattern(value: string, isCommon: (trigram: string) => boolean): string | null {
  if (!/^[\x20-\x7e]*$/.test(value)) return null;
  const windows = trigramWindows(value, isCommon);
  if (!windows.some((w) => w.common)) return null;
  // pg_trgm extracts from a piece exactly the trigrams whose characters all lie inside it. Per position
  // of value, the latest start of a common trigram ending there: [start, end] holds none when no
  // position of it has one starting at or after `start` (checked from `from`, the part before known clean).
  const commonStartEndingAt = new Array<number>(value.length).fill(-1);
  for (const w of windows) if (w.common) commonStartEndingAt[w.end] = Math.max(commonStartEndingAt[w.end], w.start);
  const onlySelective = (start: number, from: number, end: number) => {
    for (let p = from; p <= end; p++) if (commonStartEndingAt[p] >= start) return false;
    return true;
  };
  const pieces: { start: number; end: number }[] = [];
  let current: { start: number; end: number } | null = null;
  for (const w of [...windows].sort((x, y) => x.start - y.start || x.end - y.end)) {
    if (w.common) continue;
    if (current) {
      if (onlySelective(current.start, current.end + 1, w.end)) {
        current.end = Math.max(current.end, w.end);
        continue;
      }
      // Whatever comes later reaches as far: this piece is done.
      pieces.push(current);
      current = null;
    }
    const previousEnd = pieces.at(-1)?.end ?? -1;
    if (w.start > previousEnd && onlySelective(w.start, w.start, w.end)) current = { start: w.start, end: w.end };
  }
  if (current) pieces.push(current);
  if (pieces.length === 0) return null;
  return `%${pieces.map((p) => escapeLike(value.slice(p.start, p.end + 1))).join('%')}%`;
}

const STATISTICS_TTL_MS = 5 * 60_000;
/** After a read that failed for a passing reason (a dropped connection): plain patterns until then, not for five minutes. */
const RETRY_AFTER_FAILURE_MS = 10_000;
/** PostgreSQL before 14 has no pg_stats_ext_exprs: that answer does not change. */
const UNDEFINED_TABLE = '42P01';

/**
 * How common each trigram is in a searched text, from the extended statistics of migration 24
 * (`show_trgm(<text>)`, refreshed by ANALYZE): their most common elements and the share of rows
 * holding each. Read once per five minutes; a server without them (no pg_trgm, PostgreSQL before
 * 14, never analysed) gives none, and the searches keep their plain pattern.
 */
export class TrigramStatistics {
  private cached: { until: number; shares: Promise<Map<string, Map<string, number>>> } | undefined;

  constructor(
    private readonly sql: SqlClient,
    private readonly names: string[],
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `trigram` is common in the text the statistics object `name` describes. */
  async commonIn(name: string): Promise<(trigram: string) => boolean> {
    const shares = (await this.load()).get(name);
    return (trigram) => (shares?.get(trigram) ?? 0) > COMMON_TRIGRAM_SHARE;
  }

  private load(): Promise<Map<string, Map<string, number>>> {
    if (!this.cached || this.now() > this.cached.until) {
      const shares: Promise<Map<string, Map<string, number>>> = this.read().catch((error: unknown) => {
        // a passing failure (not a missing view) is tried again soon, unless a newer read replaced this one
        if ((error as { code?: unknown })?.code !== UNDEFINED_TABLE && this.cached?.shares === shares) this.cached.until = this.now() + RETRY_AFTER_FAILURE_MS;
        return new Map();
      });
      this.cached = { until: this.now() + STATISTICS_TTL_MS, shares };
    }
    return this.cached.shares;
  }

  private async read(): Promise<Map<string, Map<string, number>>> {
    const byName = new Map<string, Map<string, number>>();
    const rows = await this.sql.query<{ name: string; trigrams: string[] | null; shares: number[] | null }>(
      sql`SELECT statistics_name AS name, most_common_elems::text::text[] AS trigrams, most_common_elem_freqs AS shares
       FROM pg_stats_ext_exprs WHERE schemaname = current_schema() AND tablename = 'subscribers' AND statistics_name = ANY(${this.names}::text[])`,
    );
    for (const row of rows) {
      if (!row.trigrams || !row.shares) continue;
      byName.set(row.name, new Map(row.trigrams.map((trigram, i) => [trigram, Number(row.shares![i])])));
    }
    return byName;
  }
}
