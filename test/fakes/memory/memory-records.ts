import { CursorPage, CursorRequest, StoreRejectedError, TOTAL_COUNT_CAP } from '@app/kernel';

/**
 * What every in-memory repository shares: copies in and out (a caller never holds an object the
 * store holds), records shaped as the SQL adapters read them back, and the orderings, matches and
 * pagination the SQL statements apply.
 */

/** A value the store cannot hold: PostgreSQL refuses the NUL character in text and jsonb (SQLSTATE class 22). */
function refuseUnstorable(value: unknown, seen = new Set<unknown>()): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw new StoreRejectedError('memory store: the NUL character (U+0000) cannot be stored', '22P05');
    return;
  }
  if (value === null || typeof value !== 'object' || value instanceof Date || seen.has(value)) return;
  seen.add(value);
  for (const [key, item] of Object.entries(value)) {
    refuseUnstorable(key, seen);
    refuseUnstorable(item, seen);
  }
}

/** The copy a write stores: refused as PostgreSQL would refuse it, then detached from the caller's object. */
export function stored<T>(value: T): T {
  refuseUnstorable(value);
  return structuredClone(value);
}

/** The copy a read hands out. */
export const copy = <T>(value: T): T => structuredClone(value);

const present = (value: unknown) => value !== null && value !== undefined;

/**
 * A record with the given fields only, as a SQL adapter reads its row back: required fields as
 * they are, optional ones only when they hold a value (NULL columns become absent fields).
 */
export function shaped<T>(source: T, required: readonly (keyof T)[], optional: readonly (keyof T)[]): T {
  const result = {} as T;
  for (const field of required) result[field] = source[field];
  for (const field of optional) if (present(source[field])) result[field] = source[field];
  return result;
}

/** A primary key or unique constraint the write breaks (SQLSTATE 23505), as PostgreSQL reports it. */
export function uniqueViolation(table: string): StoreRejectedError {
  return new StoreRejectedError(`memory store: INSERT INTO ${table}: duplicate key value violates unique constraint`, '23505');
}

/** A row pointing at a parent that does not exist (SQLSTATE 23503). */
export function foreignKeyViolation(table: string): StoreRejectedError {
  return new StoreRejectedError(`memory store: INSERT INTO ${table}: violates foreign key constraint`, '23503');
}

/** jsonb's canonical text: object keys sorted (jsonb equality ignores their order), undefined dropped. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(
          Object.keys(item)
            .sort()
            .map((k) => [k, item[k]]),
        )
      : item,
  );
}

/** jsonb `=` / `IS DISTINCT FROM`. */
export const sameJson = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);

type Sortable = Date | string | number | boolean | null | undefined;

/** ORDER BY one value: dates by instant, text by code point (the databases here use the C collation), NULLs last as in PostgreSQL. */
export function compareValues(a: Sortable, b: Sortable): number {
  if (!present(a) || !present(b)) return present(a) ? -1 : present(b) ? 1 : 0;
  const x = a instanceof Date ? a.getTime() : a;
  const y = b instanceof Date ? b.getTime() : b;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A comparator for `ORDER BY key1, key2, …` (ascending; negate for DESC). */
export function orderBy<T>(...keys: ((row: T) => Sortable)[]): (a: T, b: T) => number {
  return (a, b) => {
    for (const key of keys) {
      const order = compareValues(key(a), key(b));
      if (order !== 0) return order;
    }
    return 0;
  };
}

/** `column ILIKE '%needle%'` with the caller's wildcards taken literally; a NULL column never matches. */
export function containsIgnoringCase(value: string | null | undefined, needle: string): boolean {
  return typeof value === 'string' && value.toLowerCase().includes(needle.toLowerCase());
}

/** `LIMIT limit OFFSET page × limit`. */
export const pageOf = <T>(rows: T[], page: number, limit: number): T[] => rows.slice(page * limit, page * limit + limit);

export interface CursorQuery<T> {
  /** Every row of the environment: cursors are looked up among them, whatever the filters. */
  environmentRows: T[];
  matches: (row: T) => boolean;
  /** The sort value; the id breaks ties. */
  orderValue: (row: T) => Date | string;
  request: CursorRequest;
}

/**
 * Novu's cursor pagination as the SQL adapter runs it (sql-cursor-page.ts): sort by (value, id);
 * `after` is strictly after the cursor in sort order (`includeCursor` makes it inclusive), `before`
 * pages backwards; an unknown cursor gives an empty page; `next`/`previous` only when rows lie beyond.
 */
export function cursorPage<T extends { id: string }>(query: CursorQuery<T>): CursorPage<T> {
  const { environmentRows, request } = query;
  const empty: CursorPage<T> = { items: [], next: null, previous: null, totalCount: 0, totalCountCapped: false };
  const find = (id: string) => environmentRows.find((row) => row.id === id);
  const cursor = request.after ?? request.before;
  if (cursor !== undefined && !find(cursor)) return empty;

  const ascending = orderBy<T>(query.orderValue, (row) => row.id);
  const sign = request.orderDirection === 'DESC' ? -1 : 1;
  /** Where `row` lies from `pivot` in the requested order: > 0 after it, < 0 before it. */
  const side = (row: T, pivot: T) => ascending(row, pivot) * sign;
  const beyond = (id: string, forward: boolean, inclusive: boolean) => {
    const pivot = find(id);
    return (row: T) => {
      if (!pivot) return false; // a comparison with NULL
      const s = forward ? side(row, pivot) : -side(row, pivot);
      return inclusive ? s >= 0 : s > 0;
    };
  };

  const filtered = environmentRows.filter(query.matches);
  let rows = filtered;
  if (request.after !== undefined) rows = rows.filter(beyond(request.after, true, request.includeCursor));
  if (request.before !== undefined) rows = rows.filter(beyond(request.before, false, request.includeCursor));
  const paging = request.before !== undefined;
  rows = [...rows].sort((a, b) => ascending(a, b) * sign * (paging ? -1 : 1));
  const more = rows.length > request.limit;
  const page = rows.slice(0, request.limit);
  if (paging) page.reverse();

  const exists = (id: string, forward: boolean) => filtered.some(beyond(id, forward, false));
  const first = page[0]?.id;
  const last = page[page.length - 1]?.id;
  const next = paging ? (last && exists(last, true) ? last : null) : more && last ? last : null;
  const previous = paging ? (more && first ? first : null) : first && exists(first, false) ? first : null;
  return {
    items: page.map(copy),
    next,
    previous,
    totalCount: Math.min(filtered.length, TOTAL_COUNT_CAP),
    totalCountCapped: filtered.length > TOTAL_COUNT_CAP,
  };
}

/**
 * Retention's choice (sql-retention.ts `deleteOldest`): up to `limit` rows created before `before`
 * that `eligible` allows, oldest first (the id breaking ties, where SQL leaves them to the plan).
 */
export function oldestBefore<T extends { id: string; createdAt: Date }>(rows: Iterable<T>, before: Date, limit: number, eligible: (row: T) => boolean): T[] {
  if (limit <= 0) return [];
  return [...rows]
    .filter((row) => row.createdAt.getTime() < before.getTime() && eligible(row))
    .sort(
      orderBy(
        (row) => row.createdAt,
        (row) => row.id,
      ),
    )
    .slice(0, limit);
}

/** A fake that holds records of environments: what the memory EnvironmentDataPurger asks each to drop. */
export interface EnvironmentRecords {
  /** Deletes every record of the environment it holds; how many. */
  purgeEnvironment(environmentId: string): number;
}

/** Deletes the map's entries whose record belongs to the environment; how many. */
export function deleteEnvironmentRecords<K>(map: Map<K, { environmentId: string }>, environmentId: string): number {
  let removed = 0;
  for (const [key, record] of map) {
    if (record.environmentId === environmentId && map.delete(key)) removed++;
  }
  return removed;
}
