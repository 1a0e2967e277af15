import { ExecutionDetail, ExecutionDetailRepository } from '@app/delivery';
import { EnvironmentScope } from '@app/kernel';
import { deleteOldest, ofFinishedNotifications } from '../mongo-retention';
import { COLLECTIONS, MongoStore } from '../mongo-store';
import { insertManyUnlessDuplicate } from '../mongo-writes';
import { executionDetailDocuments } from './delivery-documents';

/** ExecutionDetailRepository on MongoDB: an append of an id already there is skipped (a redelivered job). */
export class MongoExecutionDetailRepository implements ExecutionDetailRepository {
  constructor(private readonly store: MongoStore) {}

  private get details() {
    return this.store.collection(COLLECTIONS.executionDetails);
  }

  async append(detail: ExecutionDetail): Promise<void> {
    await this.appendMany([detail]);
  }

  async appendMany(details: ExecutionDetail[]): Promise<void> {
    await insertManyUnlessDuplicate(
      this.details,
      details.map((detail) => executionDetailDocuments.toDocument(detail) as { _id: string }),
    );
  }

  async listByJobIds(scope: EnvironmentScope, jobIds: string[]): Promise<ExecutionDetail[]> {
    if (jobIds.length === 0) return [];
    const docs = await this.details
      .find({ jobId: { $in: jobIds }, environmentId: scope.environmentId, organizationId: scope.organizationId }, { sort: { createdAt: 1, _id: 1 } })
      .toArray();
    return docs.map((doc) => executionDetailDocuments.toDomain(doc));
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.details, before, limit, {}, ofFinishedNotifications(this.store, 'notificationId'));
  }
}
