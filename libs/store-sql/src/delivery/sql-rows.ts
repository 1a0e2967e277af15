import { SqlClient } from '../sql-client';
import { CallBatcher } from '@app/kernel';

/** A column of a bulk insert: its name and SQL type (as jsonb_to_recordset needs it). */
export type ColumnSpec = readonly [name: string, type: string];

export const present = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;

/** A jsonb parameter: JSON text, or SQL NULL for an absent value. */
export const jsonParam = (value: unknown): string | null => (present(value) ? JSON.stringify(value) : null);

/** Copies the columns that hold a value onto `target` (optional fields stay out, never null). */
export function setPresent<T extends object>(target: T, fields: Partial<Record<keyof T, unknown>>): T {
  for (const [field, value] of Object.entries(fields)) {
    if (present(value)) (target as any)[field] = value;
  }
  return target;
}

/**
 * Inserts many rows in one statement (one jsonb parameter, so no parameter limit), skipping ids
 * that already exist. `rows` are keyed by column name. Returns how many rows were new.
 */
export async function insertManyIfAbsent(
  sql: SqlClient,
  table: string,
  columns: readonly ColumnSpec[],
  rows: Record<string, unknown>[],
  /** `any`: a row clashing with any unique constraint (not only its id) is skipped too. */
  conflict: 'id' | 'any' = 'id',
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const names = columns.map(([name]) => name).join(', ');
  const definitions = columns.map(([name, type]) => `${name} ${type}`).join(', ');
  const inserted = await sql.query(
    `INSERT INTO ${table} (${names})
     SELECT ${names} FROM jsonb_to_recordset($1::jsonb) AS r(${definitions})
     ON CONFLICT ${conflict === 'id' ? '(id) ' : ''}DO NOTHING RETURNING id`,
    [JSON.stringify(rows)],
  );
  return new Set(inserted.map((row) => row.id as string));
}

/**
 * insertManyIfAbsent for concurrent callers: the calls of one event-loop turn share one
 * statement (CallBatcher); each learns how many of its own rows were new.
 */
export function batchedInsertManyIfAbsent(sql: SqlClient, table: string, columns: readonly ColumnSpec[]): (rows: Record<string, unknown>[]) => Promise<number> {
  const batcher = new CallBatcher<Record<string, unknown>[], number>(async (_, calls) => {
    const created = await insertManyIfAbsent(sql, table, columns, calls.flat());
    return calls.map((rows) => rows.filter((row) => created.delete(row.id as string)).length);
  }, 20);
  return (rows) => (rows.length === 0 ? Promise.resolve(0) : batcher.run('', rows));
}
