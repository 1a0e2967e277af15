import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { DigestBucketRepository, DigestEvent, OpenDigest } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { sql } from '../sql-statement';
import { DigestBucketRow } from '../tables';

type StoredEvent = DigestBucketRow['events'][number];
/** The columns an open bucket always has. */
type OpenBucket = { [K in 'master_job_id' | 'master_notification_id' | 'fire_at']: NonNullable<DigestBucketRow[K]> };

const toEventJson = (e: DigestEvent): StoredEvent => ({ jobId: e.jobId, notificationId: e.notificationId, payload: e.payload, at: e.at.toISOString() });
const toEvent = (e: StoredEvent): DigestEvent => ({ jobId: e.jobId, notificationId: e.notificationId, payload: e.payload ?? {}, at: new Date(e.at) });

/** The bucket `bucketKey` of the environment. */
const bucket = (scope: EnvironmentScope, bucketKey: string) => sql`environment_id = ${scope.environmentId} AND bucket_key = ${bucketKey}`;

/**
 * Digest buckets as single conditional statements: PostgreSQL re-checks an UPDATE's WHERE (and an
 * upsert's conflict WHERE) after waiting for a concurrent writer's row lock, so a merge, an open
 * and a close of one bucket serialize on its row.
 */
@Injectable()
export class SqlDigestBucketRepository implements DigestBucketRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async mergeIntoOpen(scope: EnvironmentScope, bucketKey: string, event: DigestEvent): Promise<OpenDigest | null> {
    const [row] = await this.sql.query<OpenBucket>(
      sql`UPDATE digest_buckets SET
            events = CASE WHEN events @> ${JSON.stringify([{ jobId: event.jobId }])}::jsonb THEN events ELSE events || ${JSON.stringify([toEventJson(event)])}::jsonb END,
            last_event_at = GREATEST(last_event_at, ${event.at}::timestamptz),
            updated_at = now()
          WHERE ${bucket(scope, bucketKey)} AND status = 'open'
          RETURNING master_job_id, master_notification_id, fire_at`,
    );
    return row ? { masterJobId: row.master_job_id, masterNotificationId: row.master_notification_id, fireAt: row.fire_at } : null;
  }

  async openAsMaster(scope: EnvironmentScope, bucketKey: string, masterJobId: string, masterEvent: DigestEvent, fireAt: Date): Promise<boolean> {
    // a closed bucket is reopened in the same statement; an open one is left to its master
    const rows = await this.sql.query(
      sql`INSERT INTO digest_buckets (environment_id, bucket_key, status, generation, master_job_id, master_notification_id, events, fire_at,
            last_event_at, updated_at)
          VALUES (${scope.environmentId}, ${bucketKey}, 'open', 1, ${masterJobId}, ${masterEvent.notificationId}, ${JSON.stringify([toEventJson(masterEvent)])}::jsonb,
            ${fireAt}, ${masterEvent.at}, now())
          ON CONFLICT (environment_id, bucket_key) DO UPDATE SET
            status = 'open',
            generation = digest_buckets.generation + 1,
            master_job_id = EXCLUDED.master_job_id,
            master_notification_id = EXCLUDED.master_notification_id,
            events = EXCLUDED.events,
            fire_at = EXCLUDED.fire_at,
            last_event_at = GREATEST(digest_buckets.last_event_at, EXCLUDED.last_event_at),
            updated_at = now()
          WHERE digest_buckets.status = 'closed'
          RETURNING master_job_id`,
    );
    return rows.length === 1;
  }

  async close(scope: EnvironmentScope, bucketKey: string, masterJobId: string): Promise<DigestEvent[] | null> {
    // closing again under the same master (a redelivered fire) returns the same events until the bucket reopens
    const [row] = await this.sql.query<Pick<DigestBucketRow, 'events'>>(
      sql`UPDATE digest_buckets SET status = 'closed', updated_at = now()
          WHERE ${bucket(scope, bucketKey)} AND master_job_id = ${masterJobId}
          RETURNING events`,
    );
    return row ? row.events.map(toEvent) : null;
  }

  async recordEvent(scope: EnvironmentScope, bucketKey: string, at: Date): Promise<void> {
    await this.sql.query(
      sql`INSERT INTO digest_buckets (environment_id, bucket_key, status, last_event_at, updated_at) VALUES (${scope.environmentId}, ${bucketKey}, 'closed', ${at}, now())
          ON CONFLICT (environment_id, bucket_key) DO UPDATE SET last_event_at = GREATEST(digest_buckets.last_event_at, EXCLUDED.last_event_at)`,
    );
  }

  async hasRecentEvent(scope: EnvironmentScope, bucketKey: string, since: Date): Promise<boolean> {
    const rows = await this.sql.query(sql`SELECT 1 FROM digest_buckets WHERE ${bucket(scope, bucketKey)} AND last_event_at >= ${since}`);
    return rows.length > 0;
  }
}
