import { UNFINISHED_JOB_STATUSES } from '@app/delivery';
import { SqlClient } from '../sql-client';
import { Sql, empty, param, raw, sql } from '../sql-statement';
import { Table } from '../sql-table';

/** A retention statement's time and row limit: one placeholder each, however often the statement names them. */
const BEFORE = param('before');
const LIMIT = param('limit');

/** `r` (a row of a table holding `notification_id`, or `id` for notifications) belongs to no notification with an unfinished job. */
export const notificationFinished = (notificationIdColumn: 'notification_id' | 'id'): Sql =>
  sql`NOT EXISTS (SELECT 1 FROM jobs w WHERE w.notification_id = r.${raw(notificationIdColumn)} AND w.status = ANY(${UNFINISHED_JOB_STATUSES}::text[]))`;

/**
 * `environments_in_table`: the environments of `table`'s rows (a NULL ends the list), walked on its
 * (environment_id, …) index one probe per environment, however many rows each has. Needs WITH RECURSIVE.
 */
const environmentsIn = (table: Sql): Sql => sql`environments_in_table AS (
  (SELECT environment_id AS id FROM ${table} ORDER BY environment_id LIMIT 1)
  UNION ALL
  SELECT (SELECT n.environment_id FROM ${table} n WHERE n.environment_id > e.id ORDER BY n.environment_id LIMIT 1)
  FROM environments_in_table e WHERE e.id IS NOT NULL
)`;

/**
 * Retention: deletes up to `limit` rows of `table` created before `before` for which `condition`
 * (a predicate of the row `r`) holds, oldest first, in one statement.
 * Rows another purger has locked are skipped, so concurrent workers take disjoint batches
 * instead of waiting on each other. `= ANY(ARRAY(…))` makes the delete look its rows up by primary key
 * (a join may scan the table).
 *
 * `oldest`: how the oldest are found. `created`: the table's created_at index (migration 13).
 * `perEnvironment`: the table's (environment_id, created_at) index, for the tables that have no global
 * one (notifications and messages, migration 25, one index entry fewer per row written): the
 * environments are walked on that index (one probe per environment, whatever the row count), the
 * oldest `limit` of each are taken, and the oldest `limit` of those deleted.
 */
export async function deleteOldest(
  client: SqlClient,
  table: Table,
  before: Date,
  limit: number,
  condition: Sql,
  oldest: 'created' | 'perEnvironment' = 'created',
): Promise<number> {
  if (limit <= 0) return 0;
  const name = raw(table.name);
  const doomed =
    oldest === 'created'
      ? sql`doomed AS (
           SELECT r.id FROM ${name} r WHERE r.created_at < ${BEFORE} AND ${condition}
           ORDER BY r.created_at LIMIT ${LIMIT} FOR UPDATE OF r SKIP LOCKED
         )`
      : sql`${environmentsIn(name)}, doomed AS (
           SELECT d.id FROM environments_in_table e CROSS JOIN LATERAL (
             SELECT r.id, r.created_at FROM ${name} r WHERE r.environment_id = e.id AND r.created_at < ${BEFORE} AND ${condition}
             ORDER BY r.created_at LIMIT ${LIMIT} FOR UPDATE OF r SKIP LOCKED
           ) d
           WHERE e.id IS NOT NULL ORDER BY d.created_at LIMIT ${LIMIT}
         )`;
  const [row] = await client.query<{ deleted: number }>(
    sql`WITH RECURSIVE ${doomed}, gone AS (DELETE FROM ${name} t WHERE t.id = ANY(ARRAY(SELECT id FROM doomed)) RETURNING 1)
     SELECT count(*)::int AS deleted FROM gone`.bind({ before, limit }),
  );
  return row.deleted;
}

/**
 * A part of a row that retention clears rather than deletes (records kept on another record's row), on
 * `table`: `holds`, the row holds it and all of it is older than `before`; `records`, how many
 * records it is (an integer expression of `r`); `clear`, the SET clause that clears it (the row as `t`).
 * Jobs find their oldest on their created_at index, notifications an environment at a time (deleteOldest's
 * `perEnvironment`).
 */
interface RowPart {
  table: 'jobs' | 'notifications';
  holds: Sql;
  records: Sql;
  clear: Sql;
}

/** The details written with a job, kept on its row (migration 23): cleared once every one of them is older than `before`. */
export const JOB_DETAILS_RETENTION: RowPart = {
  table: 'jobs',
  holds: sql`r.details IS NOT NULL AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(r.details) e WHERE (e->>'created_at')::timestamptz >= ${BEFORE})`,
  records: raw('jsonb_array_length(r.details)'),
  clear: raw('details = NULL'),
};

/** A notification's first job kept on its row (migration 27): one job. */
export const FIRST_JOB_RETENTION: RowPart = {
  table: 'notifications',
  holds: raw('r.first_job IS NOT NULL'),
  records: raw('1'),
  clear: raw('first_job = NULL'),
};

/** The details written with that first job, kept on it, as JOB_DETAILS_RETENTION. */
export const FIRST_JOB_DETAILS_RETENTION: RowPart = {
  table: 'notifications',
  holds: sql`r.first_job IS NOT NULL AND jsonb_typeof(r.first_job->'details') = 'array'
    AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(r.first_job->'details') e WHERE (e->>'created_at')::timestamptz >= ${BEFORE})`,
  records: raw(`jsonb_array_length(r.first_job->'details')`),
  clear: raw(`first_job = t.first_job - 'details'`),
};

/**
 * Retention of records kept on other records' rows: clears `part` from the oldest rows of finished
 * notifications created before `before` that hold it, up to `limit` records (a row whose records alone
 * pass `limit` is cleared alone), locked rows skipped as deleteOldest does. Returns how many records it cleared.
 */
export async function clearOldest(client: SqlClient, before: Date, limit: number, part: RowPart): Promise<number> {
  if (limit <= 0) return 0;
  const table = raw(part.table);
  const oldest = (where: Sql) =>
    sql`SELECT r.id, r.created_at, ${part.records} AS n FROM ${table} r
     WHERE ${where} r.created_at < ${BEFORE} AND ${part.holds} AND ${notificationFinished(part.table === 'jobs' ? 'notification_id' : 'id')}
     ORDER BY r.created_at, r.id LIMIT ${LIMIT} FOR UPDATE OF r SKIP LOCKED`;
  const candidates =
    part.table === 'jobs'
      ? sql`candidates AS (${oldest(empty)})`
      : sql`${environmentsIn(table)}, candidates AS (
           SELECT d.id, d.created_at, d.n FROM environments_in_table e CROSS JOIN LATERAL (${oldest(raw('r.environment_id = e.id AND'))}) d
           WHERE e.id IS NOT NULL ORDER BY d.created_at, d.id LIMIT ${LIMIT}
         )`;
  const [row] = await client.query<{ cleared: number }>(
    sql`WITH RECURSIVE ${candidates}, doomed AS (
       SELECT id, n FROM (SELECT id, n, sum(n) OVER (ORDER BY created_at, id) AS upto, row_number() OVER (ORDER BY created_at, id) AS k FROM candidates) c
       WHERE upto <= ${LIMIT} OR k = 1
     ), cleared AS (UPDATE ${table} t SET ${part.clear} FROM doomed WHERE t.id = doomed.id RETURNING doomed.n)
     SELECT COALESCE(sum(n), 0)::int AS cleared FROM cleared`.bind({ before, limit }),
  );
  return row.cleared;
}
