import {
  CANCELABLE_JOB_STATUSES,
  EndedChildStatus,
  JOB_PATCH_FIELDS,
  Job,
  JobPatch,
  JobRepository,
  JobStatus,
  REQUIRED_JOB_PATCH_FIELDS,
  inChainOrder,
  jobStatusesAllowing,
  jobsAfter,
} from '@app/delivery';
import { Clock, EnvironmentScope, StoreRejectedError, systemClock } from '@app/kernel';
import { DeliveryTables, JOB_OPTIONAL_FIELDS, inScope } from './memory-delivery-tables';
import { copy, oldestBefore, orderBy, stored } from './memory-records';

const byCreation = orderBy<Job>(
  (j) => j.createdAt,
  (j) => j.id,
);

/** JobRepository in memory, over the store's shared delivery tables. */
export class InMemoryJobRepository implements JobRepository {
  constructor(
    private readonly tables: DeliveryTables,
    private readonly clock: Clock = systemClock,
  ) {}

  async findById(id: string): Promise<Job | null> {
    const job = this.tables.jobs.get(id);
    return job ? copy(job) : null;
  }

  async findChain(jobId: string): Promise<Job[]> {
    const lead = this.tables.jobs.get(jobId);
    if (!lead) return [];
    return inChainOrder([...this.tables.jobs.values()].filter((j) => j.notificationId === lead.notificationId).sort(byCreation)).map(copy);
  }

  async findByNotificationIds(scope: EnvironmentScope, notificationIds: string[]): Promise<Job[]> {
    const wanted = new Set(notificationIds);
    const rows = [...this.tables.jobs.values()]
      .filter((j) => wanted.has(j.notificationId) && inScope(scope)(j))
      .sort(
        orderBy(
          (j) => j.notificationId,
          (j) => j.createdAt,
          (j) => j.id,
        ),
      );
    return inChainOrder(rows).map(copy);
  }

  async transition(id: string, to: JobStatus, patch: JobPatch = {}): Promise<boolean> {
    const allowed = jobStatusesAllowing(to);
    if (allowed.length === 0) return false;
    const job = this.tables.jobs.get(id);
    if (!job || !allowed.includes(job.status)) return false;
    const changes = stored(patch);
    for (const field of REQUIRED_JOB_PATCH_FIELDS) {
      if (changes[field] === null)
        throw new StoreRejectedError(`memory store: UPDATE jobs: null value in column of ${field} violates not-null constraint`, '23502');
    }
    job.status = to;
    for (const field of JOB_PATCH_FIELDS) {
      const value = changes[field];
      if (value === undefined) continue;
      if (value === null) delete (job as Partial<Job>)[field as (typeof JOB_OPTIONAL_FIELDS)[number]];
      else (job as unknown as Record<string, unknown>)[field] = value;
    }
    if (!changes.updatedAt) job.updatedAt = this.clock.now();
    return true;
  }

  async cancelPendingByTransaction(scope: EnvironmentScope, transactionId: string, at?: Date): Promise<Job[]> {
    const canceled = [...this.tables.jobs.values()].filter(
      (j) => inScope(scope)(j) && j.transactionId === transactionId && CANCELABLE_JOB_STATUSES.includes(j.status),
    );
    for (const job of canceled) this.cancel(job, at);
    return canceled.map(copy);
  }

  async cancelChildren(notificationId: string, afterJobId?: string, at?: Date, status: EndedChildStatus = 'canceled'): Promise<string[]> {
    const ofNotification = [...this.tables.jobs.values()].filter((j) => j.notificationId === notificationId);
    // the jobs after afterJobId: follow parentId links down the chain
    const candidates = afterJobId === undefined ? ofNotification : jobsAfter(ofNotification, afterJobId);
    const canceled = candidates.filter((j) => CANCELABLE_JOB_STATUSES.includes(j.status));
    for (const job of canceled) this.cancel(job, at, status);
    return canceled.map((j) => j.id);
  }

  async findOverdue(before: Date, limit: number): Promise<Job[]> {
    const cutoff = before.getTime();
    return [...this.tables.jobs.values()]
      .filter(
        (j) =>
          ((j.status === 'queued' || j.status === 'running') && j.updatedAt.getTime() < cutoff) ||
          (j.status === 'delayed' && j.runAt !== undefined && j.runAt.getTime() < cutoff),
      )
      .sort(
        orderBy(
          (j) => j.updatedAt,
          (j) => j.id,
        ),
      )
      .slice(0, Math.max(limit, 0))
      .map(copy);
  }

  async findNextJob(parentId: string): Promise<Job | null> {
    const [next] = [...this.tables.jobs.values()].filter((j) => j.parentId === parentId).sort(byCreation);
    return next ? copy(next) : null;
  }

  async queueNext(parentId: string, digestEvents?: Record<string, unknown>[]): Promise<Job | null> {
    const events = digestEvents ? stored(digestEvents) : undefined;
    const moved = [...this.tables.jobs.values()].filter((j) => j.parentId === parentId && j.status === 'pending').sort(byCreation);
    for (const job of moved) {
      job.status = 'queued';
      job.updatedAt = this.clock.now();
      if (events) job.digest = { ...(job.digest ?? {}), events: copy(events) };
    }
    return moved[0] ? copy(moved[0]) : null;
  }

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const doomed = oldestBefore(this.tables.jobs.values(), before, limit, (j) => this.tables.notificationFinished(j.notificationId));
    for (const job of doomed) this.tables.jobs.delete(job.id);
    return doomed.length;
  }

  private cancel(job: Job, at?: Date, status: EndedChildStatus = 'canceled'): void {
    job.status = status;
    job.updatedAt = at ? new Date(at) : this.clock.now();
  }
}
