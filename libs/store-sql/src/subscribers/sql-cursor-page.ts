import { CursorPage, CursorRequest, EnvironmentScope, TOTAL_COUNT_CAP } from '@app/kernel';
import { SqlClient } from '../sql-client';
import { Sql, join, raw, sql } from '../sql-statement';

/** The filtered set a cursor list walks: the rows of `scope`'s environment for which every `where` holds. */
export interface CursorListQuery {
  table: string;
  scope: EnvironmentScope;
  /** Extra conditions. */
  where: Sql[];
  /** Column sorted on, the row id breaking ties. */
  orderColumn: 'id' | 'created_at' | 'updated_at' | 'key COLLATE "C"';
  request: CursorRequest;
}

/** `value` inside a `LIKE` pattern (backslash escapes), its wildcards taken literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `LIKE` pattern for a case-insensitive substring match, the user's wildcards taken literally. */
export function containsPattern(value: string): string {
  return `%${escapeLike(value)}%`;
}

/**
 * Novu's cursor pagination (`findWithCursorBasedPagination`): sort by (orderColumn, id); `after` is
 * strictly after the cursor in sort order (`includeCursor` makes it inclusive), `before` pages
 * backwards; limit+1 rows tell whether more exist; an unknown cursor gives an empty page.
 * Cursor positions are compared inside SQL, so timestamps keep their full precision.
 */
export async function cursorListPage<R extends { id: string }, T>(client: SqlClient, query: CursorListQuery, toItem: (row: R) => T): Promise<CursorPage<T>> {
  const { scope, request } = query;
  const table = raw(query.table);
  const orderColumn = raw(query.orderColumn);
  const filter = join([sql`environment_id = ${scope.environmentId}`, ...query.where], ' AND ');
  const empty: CursorPage<T> = { items: [], next: null, previous: null, totalCount: 0, totalCountCapped: false };

  const cursor = request.after ?? request.before;
  if (cursor !== undefined) {
    const found = await client.query(sql`SELECT 1 FROM ${table} WHERE environment_id = ${scope.environmentId} AND id = ${cursor}`);
    if (found.length === 0) return empty;
  }

  const position = sql`(${orderColumn}, id)`;
  const at = (id: string) => sql`(SELECT ${orderColumn}, id FROM ${table} WHERE environment_id = ${scope.environmentId} AND id = ${id})`;
  const forward = request.orderDirection === 'DESC' ? '<' : '>';
  const backward = request.orderDirection === 'DESC' ? '>' : '<';
  const inclusive = request.includeCursor ? '=' : '';
  const paging = request.before !== undefined;

  // The capped count runs beside the page (its own connection on PostgreSQL): a search pays the slower of the two, not both.
  const counted = client.query<{ count: number }>(
    sql`SELECT COUNT(*)::int AS count FROM (SELECT 1 FROM ${table} WHERE ${filter} LIMIT ${raw(String(TOTAL_COUNT_CAP + 1))}) AS capped`,
  );
  counted.catch(() => undefined); // awaited below; a page failure must not leave it unhandled

  const where = [filter];
  if (request.after !== undefined) where.push(sql`${position} ${raw(forward + inclusive)} ${at(request.after)}`);
  if (request.before !== undefined) where.push(sql`${position} ${raw(backward + inclusive)} ${at(request.before)}`);
  const direction = raw(paging ? (request.orderDirection === 'DESC' ? 'ASC' : 'DESC') : request.orderDirection);
  const rows = await client.query<R>(
    sql`SELECT * FROM ${table} WHERE ${join(where, ' AND ')} ORDER BY ${orderColumn} ${direction}, id ${direction} LIMIT ${request.limit + 1}`,
  );
  const more = rows.length > request.limit;
  const pageRows = rows.slice(0, request.limit);
  if (paging) pageRows.reverse();

  const exists = async (comparator: string, id: string) => {
    const found = await client.query(sql`SELECT 1 FROM ${table} WHERE ${filter} AND ${position} ${raw(comparator)} ${at(id)} LIMIT 1`);
    return found.length > 0;
  };
  const first = pageRows[0]?.id;
  const last = pageRows[pageRows.length - 1]?.id;
  let next: string | null = null;
  let previous: string | null = null;
  if (paging) {
    previous = more && first ? first : null;
    next = last && (await exists(forward, last)) ? last : null;
  } else {
    next = more && last ? last : null;
    // A first page (no cursor) starts the sorted set: nothing comes before it.
    previous = request.after !== undefined && first && (await exists(backward, first)) ? first : null;
  }

  const [{ count }] = await counted;
  return {
    items: pageRows.map(toItem),
    next,
    previous,
    totalCount: Math.min(count, TOTAL_COUNT_CAP),
    totalCountCapped: count > TOTAL_COUNT_CAP,
  };
}
