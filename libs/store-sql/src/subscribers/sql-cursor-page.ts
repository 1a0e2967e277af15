import { CursorPage, CursorRequest, EnvironmentScope, TOTAL_COUNT_CAP } from '@app/kernel';
import { SqlClient } from '../sql-client';

/** The filtered set a cursor list walks: `where` uses $1..$n of `params`; $1 is always the environment. */
export interface CursorListQuery {
  table: string;
  scope: EnvironmentScope;
  /** Extra conditions, each in terms of placeholders it got from `param`. */
  where: (param: (value: unknown) => string) => string[];
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
export async function cursorListPage<T>(sql: SqlClient, query: CursorListQuery, toItem: (row: any) => T): Promise<CursorPage<T>> {
  const { table, scope, orderColumn, request } = query;
  const filterParams: unknown[] = [scope.environmentId];
  const filterSql = ['environment_id = $1', ...query.where((value) => `$${filterParams.push(value)}`)].join(' AND ');
  const withParams = () => {
    const params = [...filterParams];
    return { params, param: (value: unknown) => `$${params.push(value)}` };
  };
  const empty: CursorPage<T> = { items: [], next: null, previous: null, totalCount: 0, totalCountCapped: false };

  const cursor = request.after ?? request.before;
  if (cursor !== undefined) {
    const found = await sql.query(`SELECT 1 FROM ${table} WHERE environment_id = $1 AND id = $2`, [scope.environmentId, cursor]);
    if (found.length === 0) return empty;
  }

  const position = `(${orderColumn}, id)`;
  const at = (param: (value: unknown) => string, id: string) => `(SELECT ${orderColumn}, id FROM ${table} WHERE environment_id = $1 AND id = ${param(id)})`;
  const forward = request.orderDirection === 'DESC' ? '<' : '>';
  const backward = request.orderDirection === 'DESC' ? '>' : '<';
  const inclusive = request.includeCursor ? '=' : '';
  const paging = request.before !== undefined;

  // The capped count runs beside the page (its own connection on PostgreSQL): a search pays the slower of the two, not both.
  const counted = sql.query<{ count: number }>(
    `SELECT COUNT(*)::int AS count FROM (SELECT 1 FROM ${table} WHERE ${filterSql} LIMIT ${TOTAL_COUNT_CAP + 1}) AS capped`,
    filterParams,
  );
  counted.catch(() => undefined); // awaited below; a page failure must not leave it unhandled

  const page = withParams();
  let where = filterSql;
  if (request.after !== undefined) where += ` AND ${position} ${forward}${inclusive} ${at(page.param, request.after)}`;
  if (request.before !== undefined) where += ` AND ${position} ${backward}${inclusive} ${at(page.param, request.before)}`;
  const direction = paging ? (request.orderDirection === 'DESC' ? 'ASC' : 'DESC') : request.orderDirection;
  const rows = await sql.query(
    `SELECT * FROM ${table} WHERE ${where} ORDER BY ${orderColumn} ${direction}, id ${direction} LIMIT ${page.param(request.limit + 1)}`,
    page.params,
  );
  const more = rows.length > request.limit;
  const pageRows = rows.slice(0, request.limit);
  if (paging) pageRows.reverse();

  const exists = async (comparator: string, id: string) => {
    const probe = withParams();
    const found = await sql.query(`SELECT 1 FROM ${table} WHERE ${filterSql} AND ${position} ${comparator} ${at(probe.param, id)} LIMIT 1`, probe.params);
    return found.length > 0;
  };
  const first = pageRows[0]?.id as string | undefined;
  const last = pageRows[pageRows.length - 1]?.id as string | undefined;
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
