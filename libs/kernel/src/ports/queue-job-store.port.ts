import type { JobCounts, JobState, NewJob } from './job-queue.port';

/** A job a consumer has leased. */
export interface ClaimedJob {
  id: string;
  data: unknown;
  attempts: number;
  attemptsMade: number;
  backoffMs: number;
}

/**
 * Where the embedded JobQueue (libs/queue, the one-process mode) keeps its jobs: the store the
 * service already has. One atomic operation per method; outcomes apply only while the consumer
 * still holds the job's lease. Bound by the store module, so the queue never knows the store.
 */
export interface QueueJobStore {
  /**
   * True when one process alone opens the database (an embedded DATA_DIR): a lease held by a
   * consumer not alive in this process is then a crash's leftover.
   */
  readonly heldByOneProcess: boolean;
  /** Adds the jobs; an id the queue still holds is skipped. */
  insert(queue: string, jobs: NewJob<unknown>[]): Promise<void>;
  /** Leases up to `limit` due jobs, oldest due first; consumers in several processes never take the same job. */
  claim(queue: string, consumerId: string, limit: number, leaseMs: number): Promise<ClaimedJob[]>;
  complete(queue: string, id: string, consumerId: string): Promise<void>;
  /** Makes the job due again after `delayMs`, counting the run as a failed attempt unless `spendsAttempt` is false. */
  retry(queue: string, id: string, consumerId: string, delayMs: number, error: string, spendsAttempt?: boolean): Promise<void>;
  /** Counts a failed run and ends the job as failed. */
  fail(queue: string, id: string, consumerId: string, error: string): Promise<void>;
  /** Extends every lease the consumer holds. */
  renewLeases(consumerId: string, leaseMs: number): Promise<void>;
  /**
   * Puts back jobs whose lease ran out (their consumer died), or — when `liveConsumers` is given —
   * every lease not held by one of them. A job that stalled more than `maxStalledCount` times fails.
   * Returns how many jobs it released.
   */
  requeueStalled(queue: string, maxStalledCount: number, liveConsumers?: string[]): Promise<number>;
  /** Removes a job unless a live consumer holds it; false when absent or held. */
  remove(queue: string, id: string): Promise<boolean>;
  state(queue: string, id: string): Promise<JobState | undefined>;
  counts(queue: string): Promise<JobCounts>;
  /** Milliseconds since the longest-due waiting job was due; undefined when none is due. */
  oldestWaitingAgeMs(queue: string): Promise<number | undefined>;
  /** Milliseconds until the next pending job is due (≤ 0: due now); undefined when none waits. */
  msUntilNextDue(queue: string): Promise<number | undefined>;
  /** Deletes completed jobs older than `completedMs` and failed ones older than `failedMs`. */
  purgeFinished(queue: string, completedMs: number, failedMs: number): Promise<void>;
}
export const QUEUE_JOB_STORE = Symbol('QueueJobStore');
