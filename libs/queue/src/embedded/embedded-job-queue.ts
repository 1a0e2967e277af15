import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { ClaimedJob, DeferredJobError, JobCounts, JobHandler, JobQueue, JobState, NewJob, ProcessOptions, QueuedJob, QueueJobStore } from '@app/kernel';
import { DEFAULT_RETENTION, JobRetention, errorMessage, retryDelayMs } from '../retry-policy';

export interface EmbeddedJobQueueOptions {
  /** Longest wait before looking for jobs added by another process or coming due (default 250 ms). */
  pollIntervalMs?: number;
  /** A running job's lease, renewed every third of it; a dead consumer's jobs return after it (default 30 s). */
  leaseMs?: number;
  /** How often expired leases are looked for (default: half the lease, at most 5 s). */
  stalledCheckIntervalMs?: number;
  /** Crashes survived before a job is failed instead of redelivered (default 3). */
  maxStalledCount?: number;
  retention?: Partial<JobRetention>;
}

interface Consumer {
  queueName: string;
  concurrency: number;
  handler: JobHandler<unknown>;
  running: Set<Promise<void>>;
  stopped: boolean;
  /** A wake-up that arrived while the loop was busy; the next sleep returns at once. */
  woken: boolean;
  wake: () => void;
  loop?: Promise<void>;
}

const PURGE_INTERVAL_MS = 60_000;

// Consumers alive in this process, per store: a store held by one process (PGlite) has no other
// consumers, so at start any lease held by someone else is a leftover of a crash and is released at once.
const liveConsumers = new WeakMap<QueueJobStore, Set<string>>();

/** JobQueue on the service's store, for the one-process mode: nothing is lost when the process stops. */
export class EmbeddedJobQueue implements JobQueue {
  private readonly logger = new Logger(EmbeddedJobQueue.name);
  private readonly consumerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly consumers = new Map<string, Consumer>();
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly stalledCheckIntervalMs: number;
  private readonly maxStalledCount: number;
  private readonly retention: JobRetention;
  private leaseRenewal?: NodeJS.Timeout;
  private closed = false;
  private paused = false;

  constructor(
    private readonly store: QueueJobStore,
    options: EmbeddedJobQueueOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.stalledCheckIntervalMs = options.stalledCheckIntervalMs ?? Math.min(5_000, this.leaseMs / 2);
    this.maxStalledCount = options.maxStalledCount ?? 3;
    this.retention = { ...DEFAULT_RETENTION, ...options.retention };
    if (!liveConsumers.has(store)) liveConsumers.set(store, new Set());
    liveConsumers.get(store)!.add(this.consumerId);
  }

  add<T>(queueName: string, job: NewJob<T>): Promise<void> {
    return this.addBulk(queueName, [job]);
  }

  async addBulk<T>(queueName: string, jobs: NewJob<T>[]): Promise<void> {
    this.assertOpen();
    if (jobs.length === 0) return;
    await this.store.insert(queueName, jobs);
    this.consumers.get(queueName)?.wake();
  }

  process<T>(queueName: string, options: ProcessOptions, handler: JobHandler<T>): void {
    this.assertOpen();
    if (this.consumers.has(queueName)) throw new Error(`Queue "${queueName}" already has a handler in this process`);
    const consumer: Consumer = {
      queueName,
      concurrency: Math.max(1, Math.floor(options.concurrency)),
      handler: handler as JobHandler<unknown>, // each consumer's jobs are the T its handler was given for
      running: new Set(),
      stopped: false,
      woken: false,
      wake: () => void (consumer.woken = true),
    };
    this.consumers.set(queueName, consumer);
    this.leaseRenewal ??= setInterval(() => this.renewLeases(), Math.max(10, this.leaseMs / 3));
    consumer.loop = this.consume(consumer);
  }

  remove(queueName: string, jobId: string): Promise<boolean> {
    return this.store.remove(queueName, jobId);
  }

  getJobState(queueName: string, jobId: string): Promise<JobState | undefined> {
    return this.store.state(queueName, jobId);
  }

  getCounts(queueName: string): Promise<JobCounts> {
    return this.store.counts(queueName);
  }

  getOldestWaitingAgeMs(queueName: string): Promise<number | undefined> {
    return this.store.oldestWaitingAgeMs(queueName);
  }

  async pause(): Promise<void> {
    this.paused = true;
  }

  async resume(): Promise<void> {
    this.paused = false;
    for (const consumer of this.consumers.values()) consumer.wake();
  }

  async close(options: { force?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const consumers = [...this.consumers.values()];
    for (const consumer of consumers) {
      consumer.stopped = true;
      consumer.wake();
    }
    await Promise.all(consumers.flatMap((consumer) => (consumer.loop ? [consumer.loop] : [])));
    // Leases stay renewed while running handlers finish; forced, they are left to expire.
    if (!options.force) await Promise.allSettled(consumers.flatMap((consumer) => [...consumer.running]));
    clearInterval(this.leaseRenewal);
    liveConsumers.get(this.store)?.delete(this.consumerId);
  }

  private async consume(consumer: Consumer): Promise<void> {
    const { queueName } = consumer;
    let lastStalledCheck = 0;
    let lastPurge = 0;
    let firstRound = true;
    while (!consumer.stopped) {
      try {
        if (Date.now() - lastStalledCheck >= this.stalledCheckIntervalMs) {
          const live = firstRound && this.store.heldByOneProcess ? [...(liveConsumers.get(this.store) ?? [])] : undefined;
          const requeued = await this.store.requeueStalled(queueName, this.maxStalledCount, live);
          if (requeued > 0) this.logger.warn(`Queue "${queueName}": ${requeued} job(s) of a stopped consumer released`);
          lastStalledCheck = Date.now();
          firstRound = false;
        }
        if (Date.now() - lastPurge >= PURGE_INTERVAL_MS) {
          await this.store.purgeFinished(queueName, this.retention.completedMs, this.retention.failedMs);
          lastPurge = Date.now();
        }
        const free = this.paused ? 0 : consumer.concurrency - consumer.running.size;
        if (free <= 0) {
          await this.sleep(consumer, this.pollIntervalMs); // a finishing job wakes us
          continue;
        }
        const jobs = await this.store.claim(queueName, this.consumerId, free, this.leaseMs);
        for (const job of jobs) this.run(consumer, job);
        if (jobs.length === free) continue;
        const nextDueMs = await this.store.msUntilNextDue(queueName);
        // Due jobs that could not be claimed are held by another process for a moment: look again soon.
        await this.sleep(consumer, nextDueMs === undefined ? this.pollIntervalMs : Math.min(this.pollIntervalMs, Math.max(10, nextDueMs)));
      } catch (error) {
        if (consumer.stopped) break;
        this.logger.error(`Queue "${queueName}": ${errorMessage(error)}`);
        consumer.woken = false;
        await this.sleep(consumer, Math.max(this.pollIntervalMs, 1_000));
      }
    }
  }

  private run(consumer: Consumer, claimed: ClaimedJob): void {
    const { queueName } = consumer;
    const job: QueuedJob = { id: claimed.id, queueName, data: claimed.data, attemptsMade: claimed.attemptsMade, attempts: claimed.attempts };
    const running = (async () => {
      try {
        await consumer.handler(job);
      } catch (error) {
        const deferred = error instanceof DeferredJobError;
        const delayMs = retryDelayMs(error, claimed.attemptsMade + (deferred ? 0 : 1), claimed.attempts, { type: 'exponential', delayMs: claimed.backoffMs });
        if (delayMs === undefined) await this.store.fail(queueName, job.id, this.consumerId, errorMessage(error));
        else await this.store.retry(queueName, job.id, this.consumerId, delayMs, errorMessage(error), !deferred);
        return;
      }
      await this.store.complete(queueName, job.id, this.consumerId);
    })()
      .catch((error) => {
        // The outcome was not recorded: the lease runs out and the job runs again (at-least-once).
        if (!this.closed) this.logger.error(`Queue "${queueName}", job ${job.id}: ${errorMessage(error)}`);
      })
      .finally(() => {
        consumer.running.delete(running);
        consumer.wake();
      });
    consumer.running.add(running);
  }

  private sleep(consumer: Consumer, ms: number): Promise<void> {
    if (consumer.woken || consumer.stopped) {
      consumer.woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        consumer.woken = false;
        consumer.wake = () => void (consumer.woken = true);
        resolve();
      }
      consumer.wake = done;
    });
  }

  private renewLeases(): void {
    const busy = [...this.consumers.values()].some((consumer) => consumer.running.size > 0);
    if (!busy) return;
    this.store.renewLeases(this.consumerId, this.leaseMs).catch((error) => {
      if (!this.closed) this.logger.error(`Lease renewal failed: ${errorMessage(error)}`);
    });
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The job queue is closed');
  }
}
