import { TriggerRecord, TriggerRepository, TriggerStatus } from '@app/delivery';
import { EnvironmentScope } from '@app/kernel';
import { Doc } from '../mongo-documents';
import { deleteOldest } from '../mongo-retention';
import { COLLECTIONS, MongoStore } from '../mongo-store';
import { insertUnlessDuplicate } from '../mongo-writes';
import { triggerDocuments } from './delivery-documents';

/** Statuses a cancel may still move (a canceled trigger stays as it is). */
const CANCELABLE_TRIGGER_STATUSES: TriggerStatus[] = ['accepted', 'processed'];

/** Statuses after which nothing reads a trigger again (retention may delete it). */
const FINISHED_TRIGGER_STATUSES: TriggerStatus[] = ['processed', 'canceled', 'failed'];

/** A status move: to `to` at `at`, or at the server's clock when no time is given. */
export function statusMove(to: string, at?: Date): Doc {
  return at ? { $set: { status: to, updatedAt: at } } : { $set: { status: to }, $currentDate: { updatedAt: true } };
}

/** TriggerRepository on MongoDB: the (environment, transactionId) unique index makes a repeated transactionId a no-op. */
export class MongoTriggerRepository implements TriggerRepository {
  constructor(private readonly store: MongoStore) {}

  private get triggers() {
    return this.store.collection(COLLECTIONS.triggers);
  }

  insertIfAbsent(record: TriggerRecord): Promise<boolean> {
    return insertUnlessDuplicate(() => this.triggers.insertOne(triggerDocuments.toDocument(record)));
  }

  async findById(id: string): Promise<TriggerRecord | null> {
    const doc = await this.triggers.findOne({ _id: id });
    return doc ? triggerDocuments.toDomain(doc) : null;
  }

  async findByTransactionId(scope: EnvironmentScope, transactionId: string): Promise<TriggerRecord | null> {
    const doc = await this.triggers.findOne({ environmentId: scope.environmentId, organizationId: scope.organizationId, transactionId });
    return doc ? triggerDocuments.toDomain(doc) : null;
  }

  async markStatus(id: string, from: TriggerStatus[], to: TriggerStatus, at?: Date): Promise<boolean> {
    if (from.length === 0) return false;
    return (await this.triggers.updateOne({ _id: id, status: { $in: from } }, statusMove(to, at))).matchedCount === 1;
  }

  async findStaleAccepted(olderThan: Date, limit: number): Promise<TriggerRecord[]> {
    const docs = await this.triggers.find({ status: 'accepted', createdAt: { $lt: olderThan } }, { sort: { createdAt: 1, _id: 1 }, limit }).toArray();
    return docs.map((doc) => triggerDocuments.toDomain(doc));
  }

  async cancel(scope: EnvironmentScope, transactionId: string, at?: Date): Promise<boolean> {
    const result = await this.triggers.updateOne(
      { environmentId: scope.environmentId, organizationId: scope.organizationId, transactionId, status: { $in: CANCELABLE_TRIGGER_STATUSES } },
      statusMove('canceled', at),
    );
    return result.matchedCount === 1;
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.triggers, before, limit, { status: { $in: FINISHED_TRIGGER_STATUSES } });
  }
}
