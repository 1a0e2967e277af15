import { SqlClient } from '../sql-client';

export { UNFINISHED_JOB_STATUSES } from '@app/delivery';

/** `r` (a row of a table holding `notification_id`, or `id` for notifications) belongs to no notification with an unfinished job. */
export const notificationFinishedSql = (notificationIdColumn: string, statusesParam: number) =>
  `NOT EXISTS (SELECT 1 FROM jobs w WHERE w.notification_id = r.${notificationIdColumn} AND w.status = ANY($${statusesParam}::text[]))`;

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
      : `environments_in_table AS (
           (SELECT environment_id AS id FROM ${table} ORDER BY environment_id LIMIT 1)
           UNION ALL
           SELECT (SELECT n.environment_id FROM ${table} n WHERE n.environment_id > e.id ORDER BY n.environment_id LIMIT 1)
           FROM environments_in_table e WHERE e.id IS NOT NULL
         ), doomed AS (
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
