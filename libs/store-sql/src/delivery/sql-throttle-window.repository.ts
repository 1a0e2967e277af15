import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { ThrottleDecision, ThrottleRequest, ThrottleWindowRepository } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { sql } from '../sql-statement';
import { ThrottleWindowRow } from '../tables';

/**
 * Throttle windows as one upsert per run: PostgreSQL locks the key's row (or the conflicting insert)
 * and evaluates the update on its latest version, so concurrent runs see each other's admissions.
 * A refused run rewrites the row unchanged: one statement answers every run, with the window's count
 * and end for its detail.
 */
@Injectable()
export class SqlThrottleWindowRepository implements ThrottleWindowRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async admit(scope: EnvironmentScope, key: string, request: ThrottleRequest): Promise<ThrottleDecision> {
    const jobId = sql`${request.jobId}::text`;
    const [row] = await this.sql.query<{ admitted: boolean; count: number } & Pick<ThrottleWindowRow, 'opened_at' | 'ends_at'>>(
      sql`INSERT INTO throttle_windows AS w (environment_id, throttle_key, opened_at, ends_at, job_ids)
          VALUES (${scope.environmentId}, ${key}, ${request.at}, ${request.endsAt}, ARRAY[${jobId}])
          ON CONFLICT (environment_id, throttle_key) DO UPDATE SET
            opened_at = CASE WHEN w.ends_at <= EXCLUDED.opened_at THEN EXCLUDED.opened_at ELSE w.opened_at END,
            ends_at = CASE WHEN w.ends_at <= EXCLUDED.opened_at THEN EXCLUDED.ends_at ELSE w.ends_at END,
            job_ids = CASE
              WHEN w.ends_at <= EXCLUDED.opened_at THEN EXCLUDED.job_ids
              WHEN ${jobId} = ANY(w.job_ids) OR cardinality(w.job_ids) >= ${request.threshold}::int THEN w.job_ids
              ELSE w.job_ids || ${jobId}
            END
          RETURNING ${jobId} = ANY(job_ids) AS admitted, cardinality(job_ids) AS count, opened_at, ends_at`,
    );
    return { admitted: row.admitted, count: row.count, openedAt: new Date(row.opened_at), endsAt: new Date(row.ends_at) };
  }

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    if (limit <= 0) return 0;
    // Rows locked by a run admitting right now are skipped; the WHERE is checked again once locked.
    const [row] = await this.sql.query<{ deleted: number }>(
      sql`WITH doomed AS (
            SELECT environment_id, throttle_key FROM throttle_windows WHERE ends_at < ${before} ORDER BY ends_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
          ), gone AS (
            DELETE FROM throttle_windows t USING doomed d
            WHERE t.environment_id = d.environment_id AND t.throttle_key = d.throttle_key AND t.ends_at < ${before} RETURNING 1
          )
          SELECT count(*)::int AS deleted FROM gone`,
    );
    return row.deleted;
  }
}
