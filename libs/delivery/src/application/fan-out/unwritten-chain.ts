import { Clock, NewJob } from '@app/kernel';
import { ExecutionDetail } from '../../domain/execution-detail';
import { CANCELABLE_JOB_STATUSES, Job, JobStatus, canTransitionJob } from '../../domain/job';
import { Message } from '../../domain/message';
import { EndedChildStatus, JobPatch } from '../../ports/job.repository.port';
import { StepJobData } from '../queues';
import { RunAheadWrites } from '../run-step/step-writes';

/**
 * The writes of a notification's chain that is not in the store yet: a step run against it
 * changes the chain's jobs in memory (with the store's compare-and-set rules) and collects its
 * details and messages; step jobs wait in `enqueued` until the chain is written, since a queued
 * job must never point at a row that does not exist. RunAheadWrites only, not StepWrites: no
 * provider outcome (a provider call must follow a written message, its record of the attempt)
 * and no digest bucket, so a step that needs them cannot be run against it.
 */
export class UnwrittenChain implements RunAheadWrites {
  readonly jobs: Job[];
  readonly details: ExecutionDetail[] = [];
  readonly messages: Message[] = [];
  readonly enqueued: NewJob<StepJobData>[] = [];

  constructor(
    jobs: Job[],
    private readonly clock: Clock,
  ) {
    this.jobs = jobs.map((job) => ({ ...job }));
  }

  async transition(jobId: string, to: JobStatus, patch: JobPatch = {}): Promise<boolean> {
    const job = this.jobs.find((candidate) => candidate.id === jobId);
    if (!job || !canTransitionJob(job.status, to)) return false;
    this.apply(job, to, patch);
    return true;
  }

  async appendDetail(detail: ExecutionDetail): Promise<void> {
    this.details.push(detail);
  }

  async insertMessage(message: Message): Promise<{ message: Message; created: boolean }> {
    const existing = this.messages.find((candidate) => candidate.id === message.id);
    if (existing) return { message: existing, created: false };
    this.messages.push(message);
    return { message, created: true };
  }

  async queueNext(parentId: string, digestEvents?: Record<string, unknown>[]): Promise<Job | null> {
    const next = this.jobs.find((candidate) => candidate.parentId === parentId);
    if (!next || next.status !== 'pending') return null;
    this.apply(next, 'queued', digestEvents ? { digest: { ...next.digest, events: digestEvents } } : {});
    return { ...next };
  }

  async cancelChildren(notificationId: string, afterJobId?: string, status: EndedChildStatus = 'canceled'): Promise<string[]> {
    const after = afterJobId === undefined ? -1 : this.jobs.findIndex((job) => job.id === afterJobId);
    if (afterJobId !== undefined && after === -1) return [];
    const canceled: string[] = [];
    for (const job of this.jobs.slice(after + 1)) {
      if (job.notificationId !== notificationId || !CANCELABLE_JOB_STATUSES.includes(job.status)) continue;
      this.apply(job, status, {});
      canceled.push(job.id);
    }
    return canceled;
  }

  async enqueue(job: NewJob<StepJobData>): Promise<void> {
    this.enqueued.push(job);
  }

  private apply(job: Job, to: JobStatus, patch: JobPatch): void {
    job.status = to;
    for (const [field, value] of Object.entries(patch)) {
      if (value === null) delete (job as unknown as Record<string, unknown>)[field];
      else if (value !== undefined) (job as unknown as Record<string, unknown>)[field] = value;
    }
    if (!patch.updatedAt) job.updatedAt = this.clock.now();
  }
}
