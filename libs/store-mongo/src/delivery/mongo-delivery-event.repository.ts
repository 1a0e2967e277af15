import { DeliveryEventRecord, DeliveryEventRepository, Suppression, SuppressionRepository } from '@app/delivery';
import { EnvironmentScope, Page } from '@app/kernel';
import { deleteOldest } from '../mongo-retention';
import { COLLECTIONS, MongoStore } from '../mongo-store';
import { insertUnlessDuplicate } from '../mongo-writes';
import { deliveryEventDocuments, suppressionDocuments } from './delivery-documents';

/** Vendor events applied, unique per (integration, event key): a replay inserts nothing. */
export class MongoDeliveryEventRepository implements DeliveryEventRepository {
  constructor(private readonly store: MongoStore) {}

  private get events() {
    return this.store.collection(COLLECTIONS.deliveryEvents);
  }

  insertIfAbsent(record: DeliveryEventRecord): Promise<boolean> {
    return insertUnlessDuplicate(() => this.events.insertOne(deliveryEventDocuments.toDocument(record)));
  }

  async exists(integrationId: string, eventKey: string): Promise<boolean> {
    return (await this.events.findOne({ integrationId, eventKey }, { projection: { _id: 1 } })) !== null;
  }

  async listByMessage(messageId: string): Promise<DeliveryEventRecord[]> {
    const docs = await this.events.find({ messageId }, { sort: { occurredAt: 1, _id: 1 } }).toArray();
    return docs.map((doc) => deliveryEventDocuments.toDomain(doc));
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.events, before, limit);
  }
}

/** Suppressed addresses, unique per (environment, address): the first reason stays. */
export class MongoSuppressionRepository implements SuppressionRepository {
  constructor(private readonly store: MongoStore) {}

  private get suppressions() {
    return this.store.collection(COLLECTIONS.suppressions);
  }

  insertIfAbsent(suppression: Suppression): Promise<boolean> {
    return insertUnlessDuplicate(() => this.suppressions.insertOne(suppressionDocuments.toDocument(suppression)));
  }

  async find(scope: EnvironmentScope, address: string): Promise<Suppression | null> {
    const doc = await this.suppressions.findOne({ ...this.of(scope), address });
    return doc ? suppressionDocuments.toDomain(doc) : null;
  }

  async list(scope: EnvironmentScope, query: { page: number; limit: number }): Promise<Page<Suppression>> {
    const [docs, totalCount] = await Promise.all([
      this.suppressions.find(this.of(scope), { sort: { createdAt: -1, address: 1 }, skip: query.page * query.limit, limit: query.limit }).toArray(),
      this.suppressions.countDocuments(this.of(scope)),
    ]);
    return { items: docs.map((doc) => suppressionDocuments.toDomain(doc)), totalCount };
  }

  async delete(scope: EnvironmentScope, address: string): Promise<boolean> {
    return (await this.suppressions.deleteOne({ ...this.of(scope), address })).deletedCount === 1;
  }

  private of(scope: EnvironmentScope) {
    return { environmentId: scope.environmentId, organizationId: scope.organizationId };
  }
}
