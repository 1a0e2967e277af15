import { ClaimedJob, Clock, JobCounts, JobState, NewJob, QueueJobStore, systemClock } from '@app/kernel';
import { copy, orderBy, stored } from './memory-records';

interface QueueRow {
  queue: string;
  id: string;
  /** Insertion order: breaks ties between jobs due at the same instant. */
  seq: number;
  data: unknown;
  state: 'pending' | 'active' | 'completed' | 'failed';
  runAt: number;
  attempts: number;
  attemptsMade: number;
  stalledCount: number;
  backoffMs: number;
  lockedBy?: string;
  lockedUntil?: number;
  lastError?: string;
  finishedAt?: number;
}

const STALLED_TOO_OFTEN = 'job stalled more than allowable limit';

/**
 * QueueJobStore in memory, as the SQL one (queue_jobs): jobs leased to one consumer at a time,
 * outcomes applied only while the consumer holds the lease. A memory store lives in one process,
 * so it is held by one process: a lease of a consumer that is no longer alive is a leftover.
 */
export class InMemoryQueueJobStore implements QueueJobStore {
  readonly heldByOneProcess = true;
  private readonly rows = new Map<string, QueueRow>();
  private seq = 0;

  constructor(private readonly clock: Clock = systemClock) {}

  async insert(queue: string, jobs: NewJob<unknown>[]): Promise<void> {
    const now = this.now();
    for (const job of stored(jobs)) {
      const key = this.key(queue, job.id);
      if (this.rows.has(key)) continue;
      this.rows.set(key, {
        queue,
        id: job.id,
        seq: ++this.seq,
        // Both real queues hold the payload as JSON: a Date comes back as its ISO text, undefined goes.
        data: JSON.parse(JSON.stringify(job.data ?? null)),
        state: 'pending',
        runAt: now + Math.max(0, job.delayMs ?? 0),
        attempts: Math.max(1, Math.floor(job.attempts ?? 1)),
        attemptsMade: 0,
        stalledCount: 0,
        backoffMs: Math.max(0, Math.round(job.backoff?.delayMs ?? 0)),
      });
    }
  }

  async claim(queue: string, consumerId: string, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    const now = this.now();
    const due = this.ofQueue(queue)
      .filter((row) => row.state === 'pending' && row.runAt <= now)
      .sort(
        orderBy(
          (row) => row.runAt,
          (row) => row.seq,
        ),
      )
      .slice(0, Math.max(0, limit));
    for (const row of due) Object.assign(row, { state: 'active', lockedBy: consumerId, lockedUntil: now + leaseMs });
    return due
      .sort(orderBy((row) => row.seq))
      .map((row) => ({ id: row.id, data: copy(row.data), attempts: row.attempts, attemptsMade: row.attemptsMade, backoffMs: row.backoffMs }));
  }

  async complete(queue: string, id: string, consumerId: string): Promise<void> {
    const row = this.leased(queue, id, consumerId);
    if (row) this.finish(row, 'completed');
  }

  async retry(queue: string, id: string, consumerId: string, delayMs: number, error: string, spendsAttempt = true): Promise<void> {
    const row = this.leased(queue, id, consumerId);
    if (!row) return;
    Object.assign(row, { state: 'pending', attemptsMade: row.attemptsMade + (spendsAttempt ? 1 : 0), runAt: this.now() + delayMs, lastError: error });
    this.unlock(row);
  }

  async fail(queue: string, id: string, consumerId: string, error: string): Promise<void> {
    const row = this.leased(queue, id, consumerId);
    if (!row) return;
    Object.assign(row, { attemptsMade: row.attemptsMade + 1, lastError: error });
    this.finish(row, 'failed');
  }

  async renewLeases(consumerId: string, leaseMs: number): Promise<void> {
    const until = this.now() + leaseMs;
    for (const row of this.rows.values()) if (row.state === 'active' && row.lockedBy === consumerId) row.lockedUntil = until;
  }

  async requeueStalled(queue: string, maxStalledCount: number, liveConsumers?: string[]): Promise<number> {
    const now = this.now();
    const live = liveConsumers && new Set(liveConsumers);
    const stalled = this.ofQueue(queue).filter((row) => row.state === 'active' && (row.lockedUntil! < now || (live !== undefined && !live.has(row.lockedBy!))));
    for (const row of stalled) {
      row.stalledCount += 1;
      if (row.stalledCount > maxStalledCount) {
        row.lastError = STALLED_TOO_OFTEN;
        this.finish(row, 'failed');
      } else {
        row.state = 'pending';
        this.unlock(row);
      }
    }
    return stalled.length;
  }

  async remove(queue: string, id: string): Promise<boolean> {
    const row = this.rows.get(this.key(queue, id));
    if (!row || (row.state === 'active' && row.lockedUntil! >= this.now())) return false;
    return this.rows.delete(this.key(queue, id));
  }

  async state(queue: string, id: string): Promise<JobState | undefined> {
    const row = this.rows.get(this.key(queue, id));
    return row ? this.stateOf(row, this.now()) : undefined;
  }

  async counts(queue: string): Promise<JobCounts> {
    const now = this.now();
    const counts: JobCounts = { waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 };
    for (const row of this.ofQueue(queue)) counts[this.stateOf(row, now)] += 1;
    return counts;
  }

  async oldestWaitingAgeMs(queue: string): Promise<number | undefined> {
    const now = this.now();
    const due = this.ofQueue(queue).filter((row) => row.state === 'pending' && row.runAt <= now);
    return due.length ? now - Math.min(...due.map((row) => row.runAt)) : undefined;
  }

  async msUntilNextDue(queue: string): Promise<number | undefined> {
    const pending = this.ofQueue(queue).filter((row) => row.state === 'pending');
    return pending.length ? Math.min(...pending.map((row) => row.runAt)) - this.now() : undefined;
  }

  async purgeFinished(queue: string, completedMs: number, failedMs: number): Promise<void> {
    const now = this.now();
    for (const row of this.ofQueue(queue)) {
      const keepMs = row.state === 'completed' ? completedMs : row.state === 'failed' ? failedMs : undefined;
      if (keepMs !== undefined && row.finishedAt! < now - keepMs) this.rows.delete(this.key(queue, row.id));
    }
  }

  private stateOf(row: QueueRow, now: number): JobState {
    if (row.state !== 'pending') return row.state;
    return row.runAt > now ? 'delayed' : 'waiting';
  }

  /** The job while `consumerId` holds it; outcomes of a consumer that lost its lease are ignored. */
  private leased(queue: string, id: string, consumerId: string): QueueRow | undefined {
    const row = this.rows.get(this.key(queue, id));
    return row?.state === 'active' && row.lockedBy === consumerId ? row : undefined;
  }

  private finish(row: QueueRow, state: 'completed' | 'failed'): void {
    row.state = state;
    row.finishedAt = this.now();
    this.unlock(row);
  }

  private unlock(row: QueueRow): void {
    delete row.lockedBy;
    delete row.lockedUntil;
  }

  private ofQueue(queue: string): QueueRow[] {
    return [...this.rows.values()].filter((row) => row.queue === queue);
  }

  private key(queue: string, id: string): string {
    return JSON.stringify([queue, id]);
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}
