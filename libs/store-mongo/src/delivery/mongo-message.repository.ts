import { Message, MessageDeliveryUpdate, MessageListQuery, MessageRepository } from '@app/delivery';
import { Channel, EnvironmentScope, Page } from '@app/kernel';
import { mongo } from 'mongoose';
import { allOf } from '../mongo-cursor-page';
import { Doc, updateOf } from '../mongo-documents';
import { isDuplicateKey } from '../mongo-errors';
import { deleteOldest, ofFinishedNotifications } from '../mongo-retention';
import { COLLECTIONS, MongoStore } from '../mongo-store';
import { messageDocuments } from './delivery-documents';

/**
 * A provider outcome as one update: the status; `sent` clears the error, others keep the old one
 * unless a new one is given; the provider's id kept unless given; deliveredAt appended; updatedAt
 * given or the server's clock.
 */
export function deliveryUpdate(update: MessageDeliveryUpdate): Doc {
  const $set: Doc = { status: update.status };
  const $unset: Doc = {};
  if (update.status === 'sent') Object.assign($unset, { errorId: '', errorText: '' });
  else {
    if (update.errorId != null) $set.errorId = update.errorId;
    if (update.errorText != null) $set.errorText = update.errorText;
  }
  if (update.identifier != null) $set.identifier = update.identifier;
  if (update.updatedAt) $set.updatedAt = update.updatedAt;
  return updateOf({
    $set,
    $unset,
    $push: update.deliveredAt ? { deliveredAt: update.deliveredAt } : undefined,
    $currentDate: update.updatedAt ? undefined : { updatedAt: true },
  });
}

/** The filter of a message list; an empty transactionIds list matches nothing. */
export function messageListFilter(scope: EnvironmentScope, query: MessageListQuery): mongo.Filter<Doc> {
  return allOf(
    { environmentId: scope.environmentId, organizationId: scope.organizationId },
    query.channel !== undefined ? { channel: query.channel } : {},
    query.subscriberId !== undefined ? { subscriberId: query.subscriberId } : {},
    query.transactionIds !== undefined ? { transactionId: { $in: query.transactionIds } } : {},
  );
}

/** MessageRepository on MongoDB: message ids are deterministic, so an insert of an existing one answers the stored message. */
export class MongoMessageRepository implements MessageRepository {
  constructor(private readonly store: MongoStore) {}

  private get messages() {
    return this.store.collection(COLLECTIONS.messages);
  }

  async insertIfAbsent(message: Message): Promise<{ message: Message; created: boolean }> {
    const doc = messageDocuments.toDocument(message);
    try {
      await this.messages.insertOne(doc);
      return { message: messageDocuments.toDomain(doc), created: true };
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const existing = await this.messages.findOne({ _id: message.id });
    if (!existing) return this.insertIfAbsent(message); // deleted in between: try again
    return { message: messageDocuments.toDomain(existing), created: false };
  }

  async updateDelivery(id: string, update: MessageDeliveryUpdate): Promise<boolean> {
    return (await this.messages.updateOne({ _id: id }, deliveryUpdate(update))).matchedCount === 1;
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

  async markSeen(scope: EnvironmentScope, subscriberId: string, ids: string[], at: Date): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.messages.updateMany(
      { ...this.ofSubscriber(scope, subscriberId, ids), seen: false },
      { $set: { seen: true, lastSeenDate: at, updatedAt: at } },
    );
    return result.modifiedCount;
  }

  async markRead(scope: EnvironmentScope, subscriberId: string, ids: string[], at: Date): Promise<number> {
    if (ids.length === 0) return 0;
    // a pipeline update: lastSeenDate keeps its first value
    const result = await this.messages.updateMany({ ...this.ofSubscriber(scope, subscriberId, ids), read: false }, [
      { $set: { read: true, lastReadDate: at, seen: true, lastSeenDate: { $ifNull: ['$lastSeenDate', at] }, updatedAt: at } },
    ]);
    return result.modifiedCount;
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.messages, before, limit, {}, ofFinishedNotifications(this.store, 'notificationId'));
  }

  private ofSubscriber(scope: EnvironmentScope, subscriberId: string, ids: string[]) {
    return { environmentId: scope.environmentId, organizationId: scope.organizationId, subscriberId, _id: { $in: ids } };
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
