import { CANCELABLE_JOB_STATUSES, Job, JobRepository, inChainOrder } from '@app/delivery';
import { Clock, EnvironmentScope, systemClock } from '@app/kernel';
import { DeliveryTables, inScope } from './memory-delivery-tables';
import { copy, oldestBefore, orderBy } from './memory-records';

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

  async cancelPendingByTransaction(scope: EnvironmentScope, transactionId: string, at?: Date): Promise<Job[]> {
    const canceled = [...this.tables.jobs.values()].filter(
      (j) => inScope(scope)(j) && j.transactionId === transactionId && CANCELABLE_JOB_STATUSES.includes(j.status),
    );
    for (const job of canceled) this.cancel(job, at);
    return canceled.map(copy);
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

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const doomed = oldestBefore(this.tables.jobs.values(), before, limit, (j) => this.tables.notificationFinished(j.notificationId));
    for (const job of doomed) this.tables.jobs.delete(job.id);
    return doomed.length;
  }

  private cancel(job: Job, at?: Date): void {
    job.status = 'canceled';
    job.updatedAt = at ? new Date(at) : this.clock.now();
  }
}
