import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { DigestBucketRepository, DigestEvent, OpenDigest } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';

const toEventJson = (e: DigestEvent) => ({ jobId: e.jobId, notificationId: e.notificationId, payload: e.payload, at: e.at.toISOString() });
const toEvent = (e: any): DigestEvent => ({ jobId: e.jobId, notificationId: e.notificationId, payload: e.payload ?? {}, at: new Date(e.at) });

/**
 * Digest buckets as single conditional statements: PostgreSQL re-checks an UPDATE's WHERE (and an
 * upsert's conflict WHERE) after waiting for a concurrent writer's row lock, so a merge, an open
 * and a close of one bucket serialize on its row.
 */
@Injectable()
export class SqlDigestBucketRepository implements DigestBucketRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async mergeIntoOpen(scope: EnvironmentScope, bucketKey: string, event: DigestEvent): Promise<OpenDigest | null> {
    const [row] = await this.sql.query(
      `UPDATE digest_buckets SET
         events = CASE WHEN events @> $3::jsonb THEN events ELSE events || $4::jsonb END,
         last_event_at = GREATEST(last_event_at, $5::timestamptz),
         updated_at = now()
       WHERE environment_id = $1 AND bucket_key = $2 AND status = 'open'
       RETURNING master_job_id, master_notification_id, fire_at`,
      [scope.environmentId, bucketKey, JSON.stringify([{ jobId: event.jobId }]), JSON.stringify([toEventJson(event)]), event.at],
    );
    return row ? { masterJobId: row.master_job_id, masterNotificationId: row.master_notification_id, fireAt: row.fire_at } : null;
  }

  async openAsMaster(scope: EnvironmentScope, bucketKey: string, masterJobId: string, masterEvent: DigestEvent, fireAt: Date): Promise<boolean> {
    // a closed bucket is reopened in the same statement; an open one is left to its master
    const rows = await this.sql.query(
      `INSERT INTO digest_buckets (environment_id, bucket_key, status, generation, master_job_id, master_notification_id, events, fire_at,
         last_event_at, updated_at)
       VALUES ($1, $2, 'open', 1, $3, $4, $5::jsonb, $6, $7, now())
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
      [scope.environmentId, bucketKey, masterJobId, masterEvent.notificationId, JSON.stringify([toEventJson(masterEvent)]), fireAt, masterEvent.at],
    );
    return rows.length === 1;
  }

  async close(scope: EnvironmentScope, bucketKey: string, masterJobId: string): Promise<DigestEvent[] | null> {
    // closing again under the same master (a redelivered fire) returns the same events until the bucket reopens
    const [row] = await this.sql.query(
      `UPDATE digest_buckets SET status = 'closed', updated_at = now()
       WHERE environment_id = $1 AND bucket_key = $2 AND master_job_id = $3
       RETURNING events`,
      [scope.environmentId, bucketKey, masterJobId],
    );
    return row ? (row.events as unknown[]).map(toEvent) : null;
  }

  async recordEvent(scope: EnvironmentScope, bucketKey: string, at: Date): Promise<void> {
    await this.sql.query(
      `INSERT INTO digest_buckets (environment_id, bucket_key, status, last_event_at, updated_at) VALUES ($1, $2, 'closed', $3, now())
       ON CONFLICT (environment_id, bucket_key) DO UPDATE SET last_event_at = GREATEST(digest_buckets.last_event_at, EXCLUDED.last_event_at)`,
      [scope.environmentId, bucketKey, at],
    );
  }

  async hasRecentEvent(scope: EnvironmentScope, bucketKey: string, since: Date): Promise<boolean> {
    const rows = await this.sql.query('SELECT 1 FROM digest_buckets WHERE environment_id = $1 AND bucket_key = $2 AND last_event_at >= $3', [
      scope.environmentId,
      bucketKey,
      since,
    ]);
    return rows.length > 0;
  }
}
