import { Inject, Injectable } from '@nestjs/common';
import type { ClaimedJob, JobCounts, JobState, NewJob, QueueJobStore } from '@app/kernel';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { Sql, raw, sql } from '../sql-statement';
import { QueueJobRow } from '../tables';

/** `ms` (a number, or an expression) milliseconds from now. */
const afterMs = (ms: number | Sql) => sql`now() + ${ms}::double precision * interval '1 millisecond'`;
const STATE_OF = raw(`CASE WHEN state = 'pending' AND run_at > now() THEN 'delayed' WHEN state = 'pending' THEN 'waiting' ELSE state END`);

/** The job while `consumerId` holds its lease: an outcome applies only then. */
const held = (queue: string, id: string, consumerId: string) => sql`queue = ${queue} AND id = ${id} AND state = 'active' AND locked_by = ${consumerId}`;

/**
 * The embedded queue's jobs in the queue_jobs table, one atomic statement per operation:
 * insert-if-absent, claim with FOR UPDATE SKIP LOCKED (consumers in several processes never take
 * the same job), and outcome updates that apply only while the consumer still holds the lease.
 */
@Injectable()
export class SqlQueueJobStore implements QueueJobStore {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  get heldByOneProcess(): boolean {
    return this.sql.dialect === 'pglite';
  }

  async insert(queue: string, jobs: NewJob<unknown>[]): Promise<void> {
    const rows = jobs.map((job) => ({
      id: job.id,
      data: job.data ?? null,
      delayMs: Math.max(0, job.delayMs ?? 0),
      attempts: Math.max(1, Math.floor(job.attempts ?? 1)),
      backoffMs: Math.max(0, Math.round(job.backoff?.delayMs ?? 0)),
    }));
    await this.sql.query(
      sql`INSERT INTO queue_jobs (queue, id, data, run_at, attempts, backoff_ms)
          SELECT ${queue}, r->>'id', r->'data', ${afterMs(raw("(r->>'delayMs')"))}, (r->>'attempts')::int, (r->>'backoffMs')::int
          FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) WITH ORDINALITY AS t(r, n)
          ORDER BY n
          ON CONFLICT (queue, id) DO NOTHING`,
    );
  }

  async claim(queue: string, consumerId: string, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    const rows = await this.sql.query<Pick<QueueJobRow, 'id' | 'data' | 'attempts' | 'attempts_made' | 'backoff_ms' | 'seq'>>(
      // A materialised CTE runs once; as a plain subquery the planner may rescan it and exceed the LIMIT.
      sql`WITH due AS MATERIALIZED (
            SELECT id FROM queue_jobs
            WHERE queue = ${queue} AND state = 'pending' AND run_at <= now()
            ORDER BY run_at, seq
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED
          )
          UPDATE queue_jobs AS j SET state = 'active', locked_by = ${consumerId}, locked_until = ${afterMs(leaseMs)}
          FROM due
          WHERE j.queue = ${queue} AND j.id = due.id
          RETURNING j.id, j.data, j.attempts, j.attempts_made, j.backoff_ms, j.seq::float8 AS seq`,
    );
    return rows
      .sort((a, b) => a.seq - b.seq)
      .map((r) => ({ id: r.id, data: r.data, attempts: r.attempts, attemptsMade: r.attempts_made, backoffMs: r.backoff_ms }));
  }

  async complete(queue: string, id: string, consumerId: string): Promise<void> {
    await this.sql.query(
      sql`UPDATE queue_jobs SET state = 'completed', finished_at = now(), locked_by = NULL, locked_until = NULL
          WHERE ${held(queue, id, consumerId)}`,
    );
  }

  async retry(queue: string, id: string, consumerId: string, delayMs: number, error: string, spendsAttempt = true): Promise<void> {
    await this.sql.query(
      sql`UPDATE queue_jobs SET state = 'pending', attempts_made = attempts_made + ${spendsAttempt ? 1 : 0}, run_at = ${afterMs(delayMs)},
            locked_by = NULL, locked_until = NULL, last_error = ${error}
          WHERE ${held(queue, id, consumerId)}`,
    );
  }

  async fail(queue: string, id: string, consumerId: string, error: string): Promise<void> {
    await this.sql.query(
      sql`UPDATE queue_jobs SET state = 'failed', attempts_made = attempts_made + 1, finished_at = now(),
            locked_by = NULL, locked_until = NULL, last_error = ${error}
          WHERE ${held(queue, id, consumerId)}`,
    );
  }

  async renewLeases(consumerId: string, leaseMs: number): Promise<void> {
    await this.sql.query(sql`UPDATE queue_jobs SET locked_until = ${afterMs(leaseMs)} WHERE state = 'active' AND locked_by = ${consumerId}`);
  }

  async requeueStalled(queue: string, maxStalledCount: number, liveConsumers?: string[]): Promise<number> {
    const failing = sql`stalled_count + 1 > ${maxStalledCount}`;
    const live = liveConsumers ? JSON.stringify(liveConsumers) : null;
    const rows = await this.sql.query(
      sql`UPDATE queue_jobs SET
            stalled_count = stalled_count + 1,
            state = CASE WHEN ${failing} THEN 'failed' ELSE 'pending' END,
            finished_at = CASE WHEN ${failing} THEN now() END,
            last_error = CASE WHEN ${failing} THEN 'job stalled more than allowable limit' ELSE last_error END,
            locked_by = NULL, locked_until = NULL
          WHERE queue = ${queue} AND state = 'active'
            AND (locked_until < now()
              OR (${live}::jsonb IS NOT NULL AND locked_by NOT IN (SELECT jsonb_array_elements_text(${live}::jsonb))))
          RETURNING id`,
    );
    return rows.length;
  }

  async remove(queue: string, id: string): Promise<boolean> {
    const rows = await this.sql.query(
      sql`DELETE FROM queue_jobs WHERE queue = ${queue} AND id = ${id} AND NOT (state = 'active' AND locked_until >= now()) RETURNING id`,
    );
    return rows.length > 0;
  }

  async state(queue: string, id: string): Promise<JobState | undefined> {
    const [row] = await this.sql.query<{ state: JobState }>(sql`SELECT ${STATE_OF} AS state FROM queue_jobs WHERE queue = ${queue} AND id = ${id}`);
    return row?.state;
  }

  async counts(queue: string): Promise<JobCounts> {
    const rows = await this.sql.query<{ state: JobState; n: number }>(
      sql`SELECT ${STATE_OF} AS state, count(*)::int AS n FROM queue_jobs WHERE queue = ${queue} GROUP BY 1`,
    );
    const counts: JobCounts = { waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 };
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  async oldestWaitingAgeMs(queue: string): Promise<number | undefined> {
    const [row] = await this.sql.query<{ ms: number | null }>(
      sql`SELECT (EXTRACT(EPOCH FROM (now() - min(run_at))) * 1000)::float8 AS ms FROM queue_jobs WHERE queue = ${queue} AND state = 'pending' AND run_at <= now()`,
    );
    return row?.ms ?? undefined;
  }

  async msUntilNextDue(queue: string): Promise<number | undefined> {
    const [row] = await this.sql.query<{ ms: number | null }>(
      sql`SELECT (EXTRACT(EPOCH FROM (min(run_at) - now())) * 1000)::float8 AS ms FROM queue_jobs WHERE queue = ${queue} AND state = 'pending'`,
    );
    return row?.ms ?? undefined;
  }

  async purgeFinished(queue: string, completedMs: number, failedMs: number): Promise<void> {
    await this.sql.query(
      sql`DELETE FROM queue_jobs WHERE queue = ${queue} AND (
            (state = 'completed' AND finished_at < now() - ${completedMs}::double precision * interval '1 millisecond')
            OR (state = 'failed' AND finished_at < now() - ${failedMs}::double precision * interval '1 millisecond'))`,
    );
  }
}
