import { SqlClient } from '../sql-client';

export { UNFINISHED_JOB_STATUSES } from '@app/delivery';

/** `r` (a row of a table holding `notification_id`, or `id` for notifications) belongs to no notification with an unfinished job. */
export const notificationFinishedSql = (notificationIdColumn: string, statusesParam: number) =>
  `NOT EXISTS (SELECT 1 FROM jobs w WHERE w.notification_id = r.${notificationIdColumn} AND w.status = ANY($${statusesParam}::text[]))`;

/**
 * Retention: deletes up to `limit` rows of `table` created before `before` (parameter $1; `limit`
 * is $2, `params` follow from $3) for which `condition` holds, oldest first, in one statement.
 * Rows another purger has locked are skipped, so concurrent workers take disjoint batches
 * instead of waiting on each other. The created_at index (migration 13) finds the oldest, and
 * `= ANY(ARRAY(…))` makes the delete look its rows up by primary key (a join may scan the table).
 */
export async function deleteOldest(sql: SqlClient, table: string, before: Date, limit: number, condition: string, params: unknown[]): Promise<number> {
  if (limit <= 0) return 0;
  const [row] = await sql.query<{ deleted: number }>(
    `WITH doomed AS (
       SELECT r.id FROM ${table} r WHERE r.created_at < $1 AND ${condition}
       ORDER BY r.created_at LIMIT $2 FOR UPDATE OF r SKIP LOCKED
     ), gone AS (DELETE FROM ${table} t WHERE t.id = ANY(ARRAY(SELECT id FROM doomed)) RETURNING 1)
     SELECT count(*)::int AS deleted FROM gone`,
    [before, limit, ...params],
  );
  return row.deleted;
}
