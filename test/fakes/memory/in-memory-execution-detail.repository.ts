import { ExecutionDetail, ExecutionDetailRepository } from '@app/delivery';
import { EnvironmentScope } from '@app/kernel';
import { DeliveryTables, inScope, toExecutionDetail } from './memory-delivery-tables';
import { copy, oldestBefore, orderBy, stored } from './memory-records';

/** ExecutionDetailRepository in memory, over the store's shared delivery tables: append-only, idempotent by id. */
export class InMemoryExecutionDetailRepository implements ExecutionDetailRepository {
  constructor(private readonly tables: DeliveryTables) {}

  async append(detail: ExecutionDetail): Promise<void> {
    await this.appendMany([detail]);
  }

  async appendMany(details: ExecutionDetail[]): Promise<void> {
    for (const detail of stored(details)) {
      if (!this.tables.details.has(detail.id)) this.tables.details.set(detail.id, toExecutionDetail(detail));
    }
  }

  async listByJobIds(scope: EnvironmentScope, jobIds: string[]): Promise<ExecutionDetail[]> {
    const wanted = new Set(jobIds);
    return [...this.tables.details.values()]
      .filter((d) => wanted.has(d.jobId) && inScope(scope)(d))
      .sort(
        orderBy(
          (d) => d.createdAt,
          (d) => d.id,
        ),
      )
      .map(copy);
  }

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const doomed = oldestBefore(this.tables.details.values(), before, limit, (d) => this.tables.notificationFinished(d.notificationId));
    for (const detail of doomed) this.tables.details.delete(detail.id);
    return doomed.length;
  }
}
