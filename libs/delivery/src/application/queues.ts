import { JobHandler, JobQueue, NewJob, ProcessOptions, QueuedJob } from '@app/kernel';
import { Attempt } from '../domain/attempt';

/** The triggers one fan-out job delivers: those one api process accepted together. */
export interface FanOutJobData {
  triggerIds: string[];
}

export interface StepJobData {
  jobId: string;
  /** `wake`: a delay, digest window or schedule deferral has elapsed. */
  phase?: 'run' | 'wake';
  /** Attempts made before this queue job existed (a first step tried inline by the fan-out). */
  priorAttempts?: number;
}

/** The queues of the delivery pipeline, one per stage, each with the payload its jobs carry. */
export interface PipelineQueues {
  fanout: FanOutJobData;
  steps: StepJobData;
}
export type PipelineQueueName = keyof PipelineQueues;

export const FANOUT_QUEUE = 'fanout' satisfies PipelineQueueName;
export const STEPS_QUEUE = 'steps' satisfies PipelineQueueName;

/**
 * The JobQueue as the pipeline uses it: a queue's name fixes its payload type, so a job added to
 * the wrong queue, or read as another queue's payload, does not compile. Any JobQueue is one.
 */
export interface PipelineQueue extends Omit<JobQueue, 'add' | 'addBulk' | 'process'> {
  add<Q extends PipelineQueueName>(queueName: Q, job: NewJob<PipelineQueues[Q]>): Promise<void>;
  addBulk<Q extends PipelineQueueName>(queueName: Q, jobs: NewJob<PipelineQueues[Q]>[]): Promise<void>;
  process<Q extends PipelineQueueName>(queueName: Q, options: ProcessOptions, handler: JobHandler<PipelineQueues[Q]>): void;
}

/** Fan-out and step jobs retry transient failures (store or network hiccups) with backoff. */
export const PIPELINE_JOB_OPTIONS = { attempts: 6, backoff: { type: 'exponential' as const, delayMs: 1_000 } };

/** A steps-queue job with the pipeline's retry budget. */
export function stepJob(id: string, data: StepJobData, delayMs?: number): NewJob<StepJobData> {
  return { id, data, ...(delayMs === undefined ? {} : { delayMs }), ...PIPELINE_JOB_OPTIONS };
}

/** The first run of a pipeline job, whether the queue or the fan-out (a first step inline) runs it. */
export function firstAttempt(): Attempt {
  return Attempt.first(PIPELINE_JOB_OPTIONS.attempts);
}

/** Which run a queued job is: the queue's own count plus the runs made before the job reached it. */
export function attemptOf(job: QueuedJob<PipelineQueues[PipelineQueueName]>): Attempt {
  const prior = ('priorAttempts' in job.data && job.data.priorAttempts) || 0;
  return Attempt.of(prior + job.attemptsMade, prior + job.attempts);
}

/**
 * Hands the `next` run of a step to the steps queue, after `delayMs`: the queue job gets what is
 * left of the budget, and `priorAttempts` tells attemptOf how much was used before it.
 */
export function stepRetryJob(jobId: string, next: Attempt, delayMs: number): NewJob<StepJobData> {
  return { id: jobId, data: { jobId, priorAttempts: next.made }, delayMs, backoff: PIPELINE_JOB_OPTIONS.backoff, attempts: next.allowed - next.made };
}
