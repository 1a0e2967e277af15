import { SqlClient } from '../sql-client';

import { UNFINISHED_JOB_STATUSES } from '@app/delivery';

export { UNFINISHED_JOB_STATUSES };

/** `r` (a row of a table holding `notification_id`, or `id` for notifications) belongs to no notification with an unfinished job. */
export const notificationFinishedSql = (notificationIdColumn: string, statusesParam: number) =>
  `NOT EXISTS (SELECT 1 FROM jobs w WHERE w.notification_id = r.${notificationIdColumn} AND w.status = ANY($${statusesParam}::text[]))`;

/**
 * `environments_in_table`: the environments of `table`'s rows (a NULL ends the list), walked on its
 * (environment_id, …) index one probe per environment, however many rows each has. Needs WITH RECURSIVE.
 */
const environmentsIn = (table: string) => `environments_in_table AS (
  (SELECT environment_id AS id FROM ${table} ORDER BY environment_id LIMIT 1)
  UNION ALL
  SELECT (SELECT n.environment_id FROM ${table} n WHERE n.environment_id > e.id ORDER BY n.environment_id LIMIT 1)
  FROM environments_in_table e WHERE e.id IS NOT NULL
)`;

/**
 * Retention: deletes up to `limit` rows of `table` created before `before` (parameter $1; `limit`
 * is $2, `params` follow from $3) for which `condition` holds, oldest first, in one statement.
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
  sql: SqlClient,
  table: string,
  before: Date,
  limit: number,
  condition: string,
  params: unknown[],
  oldest: 'created' | 'perEnvironment' = 'created',
): Promise<number> {
  if (limit <= 0) return 0;
  const doomed =
    oldest === 'created'
      ? `doomed AS (
           SELECT r.id FROM ${table} r WHERE r.created_at < $1 AND ${condition}
           ORDER BY r.created_at LIMIT $2 FOR UPDATE OF r SKIP LOCKED
         )`
      : `${environmentsIn(table)}, doomed AS (
           SELECT d.id FROM environments_in_table e CROSS JOIN LATERAL (
             SELECT r.id, r.created_at FROM ${table} r WHERE r.environment_id = e.id AND r.created_at < $1 AND ${condition}
             ORDER BY r.created_at LIMIT $2 FOR UPDATE OF r SKIP LOCKED
           ) d
           WHERE e.id IS NOT NULL ORDER BY d.created_at LIMIT $2
         )`;
  const [row] = await sql.query<{ deleted: number }>(
    `WITH RECURSIVE ${doomed}, gone AS (DELETE FROM ${table} t WHERE t.id = ANY(ARRAY(SELECT id FROM doomed)) RETURNING 1)
     SELECT count(*)::int AS deleted FROM gone`,
    [before, limit, ...params],
  );
  return row.deleted;
}

/**
 * A part of a row that retention clears rather than deletes (records kept on another record's row), on
 * `table`: `holds`, the row holds it and all of it is older than `before` ($1); `records`, how many
 * records it is (an integer expression of `r`); `clear`, the SET clause that clears it (the row as `t`).
 * Jobs find their oldest on their created_at index, notifications an environment at a time (deleteOldest's
 * `perEnvironment`).
 */
interface RowPart {
  table: 'jobs' | 'notifications';
  holds: string;
  records: string;
  clear: string;
}

/** The details written with a job, kept on its row (migration 23): cleared once every one of them is older than `before`. */
export const JOB_DETAILS_RETENTION: RowPart = {
  table: 'jobs',
  holds: `r.details IS NOT NULL AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(r.details) e WHERE (e->>'created_at')::timestamptz >= $1)`,
  records: 'jsonb_array_length(r.details)',
  clear: 'details = NULL',
};

/** A notification's first job kept on its row (migration 27): one job. */
export const FIRST_JOB_RETENTION: RowPart = { table: 'notifications', holds: 'r.first_job IS NOT NULL', records: '1', clear: 'first_job = NULL' };

/** The details written with that first job, kept on it, as JOB_DETAILS_RETENTION. */
export const FIRST_JOB_DETAILS_RETENTION: RowPart = {
  table: 'notifications',
  holds: `r.first_job IS NOT NULL AND jsonb_typeof(r.first_job->'details') = 'array'
    AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(r.first_job->'details') e WHERE (e->>'created_at')::timestamptz >= $1)`,
  records: `jsonb_array_length(r.first_job->'details')`,
  clear: `first_job = t.first_job - 'details'`,
};

/**
 * Retention of records kept on other records' rows: clears `part` from the oldest rows of finished
 * notifications created before `before` that hold it, up to `limit` records (a row whose records alone
 * pass `limit` is cleared alone), locked rows skipped as deleteOldest does. Returns how many records it cleared.
 */
export async function clearOldest(sql: SqlClient, before: Date, limit: number, part: RowPart): Promise<number> {
  if (limit <= 0) return 0;
  const oldest = (where: string) =>
    `SELECT r.id, r.created_at, ${part.records} AS n FROM ${part.table} r
     WHERE ${where} r.created_at < $1 AND ${part.holds} AND ${notificationFinishedSql(part.table === 'jobs' ? 'notification_id' : 'id', 3)}
     ORDER BY r.created_at, r.id LIMIT $2 FOR UPDATE OF r SKIP LOCKED`;
  const candidates =
    part.table === 'jobs'
      ? `candidates AS (${oldest('')})`
      : `${environmentsIn(part.table)}, candidates AS (
           SELECT d.id, d.created_at, d.n FROM environments_in_table e CROSS JOIN LATERAL (${oldest('r.environment_id = e.id AND')}) d
           WHERE e.id IS NOT NULL ORDER BY d.created_at, d.id LIMIT $2
         )`;
  const [row] = await sql.query<{ cleared: number }>(
    `WITH RECURSIVE ${candidates}, doomed AS (
       SELECT id, n FROM (SELECT id, n, sum(n) OVER (ORDER BY created_at, id) AS upto, row_number() OVER (ORDER BY created_at, id) AS k FROM candidates) c
       WHERE upto <= $2 OR k = 1
     ), cleared AS (UPDATE ${part.table} t SET ${part.clear} FROM doomed WHERE t.id = doomed.id RETURNING doomed.n)
     SELECT COALESCE(sum(n), 0)::int AS cleared FROM cleared`,
    [before, limit, UNFINISHED_JOB_STATUSES],
  );
  return row.cleared;
}
