/**
 * The queue the delivery pipeline runs on: Bull on Redis in production, a table in the SQL store
 * in the one-process mode. Delivery is at-least-once: a job can run again after a crash, so a
 * handler makes its effects idempotent (the job id is a good idempotency key).
 */

/** Exponential backoff between retries: delayMs × (2^n − 1) before the n-th retry (Bull's rule). */
export interface JobBackoff {
  type: 'exponential';
  delayMs: number;
}

export interface NewJob<T = unknown> {
  /** Deduplication key: adding an id the queue still holds (in any state) is a no-op. */
  id: string;
  /** JSON-serialisable payload. */
  data: T;
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
  /** Total runs allowed, the first included (default 1: no retry). */
  attempts?: number;
  backoff?: JobBackoff;
}

export interface QueuedJob<T = unknown> {
  id: string;
  queueName: string;
  data: T;
  /** Failed runs before this one (0 on the first run; a crashed run does not count). */
  attemptsMade: number;
  /** Total runs allowed, the first included. */
  attempts: number;
}

export type JobHandler<T = unknown> = (job: QueuedJob<T>) => Promise<void>;

export interface ProcessOptions {
  /** Jobs of this queue run at the same time in this process. */
  concurrency: number;
}

/** undefined from getJobState means the queue does not hold the id (never added, removed or purged). */
export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

export type JobCounts = Record<JobState, number>;

export interface JobQueue {
  /** Adds one job; a no-op when the id is already held. */
  add<T>(queueName: string, job: NewJob<T>): Promise<void>;
  /** Adds many jobs in one round trip where the backend allows; ids already held are skipped. */
  addBulk<T>(queueName: string, jobs: NewJob<T>[]): Promise<void>;
  /**
   * Starts consuming `queueName` in this process (one handler per queue per JobQueue).
   * Retry rule: a handler that throws RetryableJobError is retried (after `retryAfterMs` when
   * given, else after the job's backoff) until `attempts` runs are used up; any other error
   * fails the job at once. Returning normally completes it. A DeferredJobError runs the job again
   * after its `retryAfterMs` without using an attempt.
   */
  process<T>(queueName: string, options: ProcessOptions, handler: JobHandler<T>): void;
  /** Removes a waiting, delayed, completed or failed job; false when absent or running now. */
  remove(queueName: string, jobId: string): Promise<boolean>;
  getJobState(queueName: string, jobId: string): Promise<JobState | undefined>;
  getCounts(queueName: string): Promise<JobCounts>;
  /**
   * Milliseconds the job next in line has waited since it was due (added, or its delay over);
   * undefined when no job waits. Queue latency, for monitoring.
   */
  getOldestWaitingAgeMs(queueName: string): Promise<number | undefined>;
  /** Stops taking new jobs of the queues this process consumes; running jobs go on. A no-op when paused. */
  pause(): Promise<void>;
  /** Takes jobs again after pause(). */
  resume(): Promise<void>;
  /**
   * Stops consuming and releases connections. Waits for running handlers unless `force`: then
   * their jobs keep their lease and come back to the queue when it expires, as after a crash.
   */
  close(options?: { force?: boolean }): Promise<void>;
}
export const JOB_QUEUE = Symbol('JobQueue');

/** Thrown by a job handler to ask for another run (transient failure: network, rate limit…). */
export class RetryableJobError extends Error {
  constructor(
    message: string,
    /** Wait this long before the retry instead of the job's backoff (e.g. a provider's Retry-After). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'RetryableJobError';
  }
}

/**
 * Thrown by a job handler that could not do its work for a reason outside the job (the store does
 * not answer): the job runs again after `retryAfterMs`, and this run does not use one of its attempts.
 */
export class DeferredJobError extends RetryableJobError {
  constructor(message: string, retryAfterMs: number) {
    super(message, retryAfterMs);
    this.name = 'DeferredJobError';
  }
}
