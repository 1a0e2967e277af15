import { Logger } from '@nestjs/common';
import Bull from 'bull';
import { CallBatcher, DeferredJobError, JobCounts, JobHandler, JobQueue, JobState, NewJob, ProcessOptions, QueuedJob, RetryableJobError } from '@app/kernel';
import { DEFAULT_RETENTION, JobRetention, retryDelayMs } from '../retry-policy';

export interface BullJobQueueOptions {
  redisUrl: string;
  /** Key prefix; processes that share a prefix share the queues (tests isolate by prefix). */
  prefix?: string;
  /** A running job's lock lives this long and is renewed at half of it (default 30 s). */
  lockDurationMs?: number;
  /** How often an expired lock is looked for, i.e. how soon after its lock a crashed worker's job comes back (default: half the lock). */
  stalledIntervalMs?: number;
  /** Crashes survived before a job is failed instead of redelivered: stops a poison job looping (default 3). */
  maxStalledCount?: number;
  retention?: Partial<JobRetention>;
  /** Queues already made elsewhere (by @nestjs/bull's BullModule), by name; others are made on first use. */
  queues?: Record<string, Bull.Queue>;
  /** Cap on finished jobs kept per queue, so Redis memory stays bounded under load (default 50,000). */
  maxFinishedJobsKept?: number;
}

// The one backoff strategy registered on every queue: it reads the port's retry rule.
const PORT_BACKOFF = 'portRetry';

/** How every queue of this adapter is configured: prefix, lock and stall handling, the port's backoff. */
export function bullQueueOptions(options: Omit<BullJobQueueOptions, 'redisUrl'>): Bull.QueueOptions {
  const lockDuration = options.lockDurationMs ?? 30_000;
  return {
    prefix: options.prefix ?? 'bull',
    settings: {
      lockDuration,
      lockRenewTime: lockDuration / 2,
      stalledInterval: options.stalledIntervalMs ?? lockDuration / 2,
      maxStalledCount: options.maxStalledCount ?? 3,
      backoffStrategies: {
        [PORT_BACKOFF]: (attemptsMade: number, error: Error, strategy?: { delayMs?: number }) =>
          retryDelayMs(error, attemptsMade, Number.POSITIVE_INFINITY, { type: 'exponential', delayMs: strategy?.delayMs ?? 0 }) ?? -1,
      },
    },
  };
}

/** JobQueue on Bull (Redis): one Bull queue per queue name, created on first use. */
export class BullJobQueue implements JobQueue {
  private readonly logger = new Logger(BullJobQueue.name);
  private readonly queues = new Map<string, Bull.Queue>();
  private readonly handled = new Set<string>();
  private readonly retention: JobRetention;
  private closing?: Promise<void>;
  private paused = false;
  /** Adds of one event-loop turn (concurrent trigger requests, steps handing on) go as one MULTI per queue. */
  private readonly adds = new CallBatcher<NewJob<unknown>, void>(async (queueName, jobs) => {
    if (jobs.length === 1) await this.queue(queueName).add(jobs[0].data, this.jobOptions(jobs[0]));
    else await this.addBulk(queueName, jobs);
    return jobs.map(() => undefined);
  });

  constructor(private readonly options: BullJobQueueOptions) {
    this.retention = { ...DEFAULT_RETENTION, ...options.retention };
    for (const [name, queue] of Object.entries(options.queues ?? {})) this.adopt(name, queue);
  }

  add<T>(queueName: string, job: NewJob<T>): Promise<void> {
    return this.adds.run(queueName, job);
  }

  async addBulk<T>(queueName: string, jobs: NewJob<T>[]): Promise<void> {
    if (jobs.length === 0) return;
    // Bull sends the whole batch in one MULTI; its add script skips ids that exist.
    await this.queue(queueName).addBulk(jobs.map((job) => ({ data: job.data, opts: this.jobOptions(job) })));
  }

  process<T>(queueName: string, options: ProcessOptions, handler: JobHandler<T>): void {
    if (this.handled.has(queueName)) throw new Error(`Queue "${queueName}" already has a handler in this process`);
    this.handled.add(queueName);
    const queue = this.queue(queueName);
    const started = queue.process(Math.max(1, options.concurrency), async (job: Bull.Job) => {
      try {
        await handler(toQueuedJob<T>(queueName, job));
      } catch (error) {
        // Bull counts every failed run (moveToFailed adds one to attemptsMade and saves it, then
        // retries while it is below attempts): one taken off first leaves a deferred run uncounted.
        if (error instanceof DeferredJobError) job.attemptsMade -= 1;
        // Bull retries every error; the port retries only RetryableJobError.
        else if (!(error instanceof RetryableJobError)) void job.discard(); // only sets a flag, typed as a promise
        throw error instanceof Error ? error : new Error(String(error));
      }
    });
    // process() settles only when the queue closes; a rejection then is a connection failure.
    started.catch((error) => this.logger.error(`Consumer of "${queueName}" stopped: ${error?.message ?? error}`));
  }

  async pause(): Promise<void> {
    if (this.paused) return;
    this.paused = true;
    // Local (this process only), and without waiting for the running jobs (a handler may be the one
    // pausing): Bull reconnects the blocking connection, so no consumer loop is left waiting for a job.
    await Promise.all([...this.handled].map((name) => this.queue(name).pause(true, true)));
  }

  async resume(): Promise<void> {
    if (!this.paused) return;
    this.paused = false;
    await Promise.all([...this.handled].map((name) => this.queue(name).resume(true)));
  }

  async remove(queueName: string, jobId: string): Promise<boolean> {
    const job = await this.queue(queueName).getJob(jobId);
    if (!job) return false;
    try {
      await job.remove(); // refuses a job whose lock a live worker holds
      return true;
    } catch {
      return false;
    }
  }

  async getJobState(queueName: string, jobId: string): Promise<JobState | undefined> {
    const job = await this.queue(queueName).getJob(jobId);
    if (!job) return undefined;
    const state = await job.getState();
    switch (state) {
      case 'completed':
      case 'failed':
      case 'delayed':
      case 'active':
      case 'waiting':
        return state;
      case 'paused':
        return 'waiting';
      default:
        return undefined; // 'stuck': the job hash exists in no list (removed mid-way)
    }
  }

  async getCounts(queueName: string): Promise<JobCounts> {
    const counts = (await this.queue(queueName).getJobCounts()) as Bull.JobCounts & { paused?: number };
    return {
      waiting: counts.waiting + (counts.paused ?? 0),
      delayed: counts.delayed,
      active: counts.active,
      completed: counts.completed,
      failed: counts.failed,
    };
  }

  async getOldestWaitingAgeMs(queueName: string): Promise<number | undefined> {
    // The job next in line is the last of the wait list (of `paused` while the queue is paused globally).
    const jobs = (await this.queue(queueName).getWaiting(0, 0)).filter(Boolean);
    if (!jobs.length) return undefined;
    // Bull records no time a job became due: added + delay, or for a job that ran before (retried,
    // or back from a dead consumer) the start of its last run, which counts that run and its backoff too.
    const dueAt = Math.min(...jobs.map((job) => Math.max(job.timestamp + (job.opts.delay ?? 0), job.processedOn ?? 0)));
    return Math.max(0, Date.now() - dueAt);
  }

  close(options: { force?: boolean } = {}): Promise<void> {
    this.closing ??= Promise.all([...this.queues.values()].map((queue) => queue.close(options.force === true))).then(() => undefined);
    return this.closing;
  }

  private queue(name: string): Bull.Queue {
    if (this.closing) throw new Error('The job queue is closed');
    let queue = this.queues.get(name);
    if (!queue) queue = this.adopt(name, new Bull(name, this.options.redisUrl, bullQueueOptions(this.options)));
    return queue;
  }

  private adopt(name: string, queue: Bull.Queue): Bull.Queue {
    queue.on('error', (error) => this.logger.error(`Queue "${name}": ${error?.message ?? error}`));
    this.queues.set(name, queue);
    return queue;
  }

  private jobOptions(job: NewJob<unknown>): Bull.JobOptions {
    const keep = this.options.maxFinishedJobsKept ?? 50_000;
    return {
      jobId: job.id,
      delay: job.delayMs && job.delayMs > 0 ? Math.round(job.delayMs) : undefined,
      attempts: Math.max(1, job.attempts ?? 1),
      backoff: { type: PORT_BACKOFF, options: { delayMs: job.backoff?.delayMs ?? 0 } },
      removeOnComplete: { age: Math.ceil(this.retention.completedMs / 1000), count: keep },
      removeOnFail: { age: Math.ceil(this.retention.failedMs / 1000), count: keep },
    };
  }
}

function toQueuedJob<T>(queueName: string, job: Bull.Job): QueuedJob<T> {
  return { id: String(job.id), queueName, data: job.data as T, attemptsMade: job.attemptsMade, attempts: job.opts.attempts ?? 1 };
}
