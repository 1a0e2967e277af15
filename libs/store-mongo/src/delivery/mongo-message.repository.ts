import { Message, MessageListQuery, MessageRepository } from '@app/delivery';
import { Channel, EnvironmentScope, Page } from '@app/kernel';
import { mongo } from 'mongoose';
import { allOf } from '../mongo-cursor-page';
import { Doc } from '../mongo-documents';
import { deleteOldest, ofFinishedNotifications } from '../mongo-retention';
import { COLLECTIONS, MongoStore } from '../mongo-store';
import { messageDocuments } from './delivery-documents';

/** The filter of a message list; an empty transactionIds list matches nothing. */
export function messageListFilter(scope: EnvironmentScope, query: MessageListQuery): mongo.Filter<Doc> {
  return allOf(
    { environmentId: scope.environmentId, organizationId: scope.organizationId },
    query.channel !== undefined ? { channel: query.channel } : {},
    query.subscriberId !== undefined ? { subscriberId: query.subscriberId } : {},
    query.transactionIds !== undefined ? { transactionId: { $in: query.transactionIds } } : {},
  );
}

/** MessageRepository on MongoDB. */
export class MongoMessageRepository implements MessageRepository {
  constructor(private readonly store: MongoStore) {}

  private get messages() {
    return this.store.collection(COLLECTIONS.messages);
  }

  async findById(scope: EnvironmentScope, id: string): Promise<Message | null> {
    return this.findOne({ _id: id, environmentId: scope.environmentId, organizationId: scope.organizationId });
  }

  async findByProviderIdentifier(scope: EnvironmentScope, providerId: string, identifiers: string[]): Promise<Message | null> {
    if (!identifiers.length) return null;
    return this.findOne(
      { environmentId: scope.environmentId, organizationId: scope.organizationId, providerId, identifier: { $in: identifiers } },
      { createdAt: -1, _id: -1 },
    );
  }

  async recordDeliveryState(id: string, change: { state: string; at: Date }): Promise<boolean> {
    // events arrive out of order: a state older than the one held is not applied
    const result = await this.messages.updateOne(
      { _id: id, $or: [{ deliveryStateAt: { $exists: false } }, { deliveryStateAt: { $lte: change.at } }] },
      { $set: { deliveryState: change.state, deliveryStateAt: change.at } },
    );
    return result.matchedCount === 1;
  }

  async findByJobId(jobId: string): Promise<Message[]> {
    const docs = await this.messages.find({ jobId }, { sort: { createdAt: 1, _id: 1 } }).toArray();
    return docs.map((doc) => messageDocuments.toDomain(doc));
  }

  async list(scope: EnvironmentScope, query: MessageListQuery): Promise<Page<Message>> {
    if (query.transactionIds !== undefined && query.transactionIds.length === 0) return { items: [], totalCount: 0 };
    const filter = messageListFilter(scope, query);
    const [docs, totalCount] = await Promise.all([
      this.messages.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: query.page * query.limit, limit: query.limit }).toArray(),
      this.messages.countDocuments(filter),
    ]);
    return { items: docs.map((doc) => messageDocuments.toDomain(doc)), totalCount };
  }

  async deleteByTransaction(scope: EnvironmentScope, transactionId: string, channel?: Channel | string): Promise<Message[]> {
    const filter = { environmentId: scope.environmentId, organizationId: scope.organizationId, transactionId, ...(channel !== undefined ? { channel } : {}) };
    return deleteEach(this.messages, filter);
  }

  async deleteById(scope: EnvironmentScope, id: string): Promise<Message | null> {
    const doc = await this.messages.findOneAndDelete({ _id: id, environmentId: scope.environmentId, organizationId: scope.organizationId });
    return doc ? messageDocuments.toDomain(doc) : null;
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.messages, before, limit, {}, ofFinishedNotifications(this.store, 'notificationId'));
  }

  private async findOne(filter: mongo.Filter<Doc>, sort?: Record<string, 1 | -1>): Promise<Message | null> {
    const doc = await this.messages.findOne(filter, sort ? { sort } : {});
    return doc ? messageDocuments.toDomain(doc) : null;
  }
}

/** Deletes the messages under `filter` one write each, so each deleted message is answered to the one call that deleted it. */
export async function deleteEach(messages: mongo.Collection<Doc>, filter: mongo.Filter<Doc>): Promise<Message[]> {
  const deleted: Message[] = [];
  for (const { _id } of await messages.find(filter, { projection: { _id: 1 } }).toArray()) {
    const doc = await messages.findOneAndDelete(allOf(filter, { _id }));
    if (doc) deleted.push(messageDocuments.toDomain(doc));
  }
  return deleted;
}
