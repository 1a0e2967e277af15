import { CursorPage, EnvironmentScope, PageRequest } from '@app/kernel';
import {
  SUBSCRIBER_PROFILE_FIELDS,
  Subscriber,
  SubscriberChanges,
  SubscriberChannel,
  SubscriberRepository,
  SubscriberSearch,
  SubscriberSearchFilter,
  SubscriberUpsert,
} from '@app/subscribers';
import { mongo } from 'mongoose';
import { CursorOrderField, allOf, containsIgnoringCase, cursorListPage } from '../mongo-cursor-page';
import { Doc, DocumentMapper, updateOf } from '../mongo-documents';
import { isDuplicateKey } from '../mongo-errors';
import { upsertOne } from '../mongo-writes';
import { toStoredJson } from '../mongo-json';
import { COLLECTIONS, MongoStore } from '../mongo-store';

/** The fields a change may set. */
const CHANGE_FIELDS = [...SUBSCRIBER_PROFILE_FIELDS, 'data'] as const;
type ChangeField = (typeof CHANGE_FIELDS)[number];

const documents = new DocumentMapper<Subscriber>({
  fields: ['organizationId', 'environmentId', 'subscriberId', ...CHANGE_FIELDS, 'channels', 'isOnline', 'lastOnlineAt', 'createdAt', 'updatedAt'],
  json: ['data', 'channels'],
  defaults: { channels: () => [] },
});

/**
 * Fields the caller set to null are kept as `clearedFields: {firstName: true, …}`: a change marks
 * and unmarks single fields with $set/$unset, where an array would need a read first.
 */
const CLEARED = 'clearedFields';

/** Subscriber ↔ document. Presence (isOnline, lastOnlineAt) is the Inbox's to write: an insert leaves it out. */
export const subscriberDocuments = {
  toDocument(subscriber: Subscriber): Doc {
    const { isOnline: _online, lastOnlineAt: _at, ...rest } = subscriber;
    const doc = documents.toDocument(rest);
    doc.channels ??= [];
    if (subscriber.cleared?.length) doc[CLEARED] = Object.fromEntries(subscriber.cleared.map((field) => [field, true]));
    return doc;
  },
  toDomain(doc: Doc): Subscriber {
    const subscriber = documents.toDomain(doc);
    const cleared = Object.keys(doc[CLEARED] ?? {}).sort();
    if (cleared.length) subscriber.cleared = cleared as Subscriber['cleared'];
    return subscriber;
  },
};

/** The fields a change really sets: undefined stays as it is. */
const changedFields = (changes: SubscriberChanges) => CHANGE_FIELDS.filter((field) => changes[field] !== undefined);

/**
 * A change as update operators: values set, nulls unset, and the cleared marks following them
 * (a field set loses its mark, a field nulled gains it).
 */
export function subscriberChange(changes: SubscriberChanges, fields: readonly ChangeField[]): { $set: Doc; $unset: Doc } {
  const $set: Doc = {};
  const $unset: Doc = {};
  for (const field of fields) {
    const value = changes[field];
    if (value === null) {
      $unset[field] = '';
      $set[`${CLEARED}.${field}`] = true;
    } else {
      $set[field] = documents.field(field, value);
      $unset[`${CLEARED}.${field}`] = '';
    }
  }
  return { $set, $unset };
}

const ORDER_FIELDS: Record<SubscriberSearch['orderBy'], CursorOrderField> = { _id: '_id', createdAt: 'createdAt', updatedAt: 'updatedAt' };

/** The filter of a subscriber search: SQL's ILIKE substrings (the name on the trimmed "first last"), the exact subscriberId. */
export function subscriberSearchFilter(environmentId: string, filter: SubscriberSearchFilter): mongo.Filter<Doc> {
  const conditions: mongo.Filter<Doc>[] = [{ environmentId }];
  if (filter.email) conditions.push({ email: containsIgnoringCase(filter.email) });
  if (filter.phone) conditions.push({ phone: containsIgnoringCase(filter.phone) });
  if (filter.name) {
    const fullName = { $concat: [{ $ifNull: ['$firstName', ''] }, ' ', { $ifNull: ['$lastName', ''] }] };
    const { $regex, $options } = containsIgnoringCase(filter.name);
    conditions.push({ $expr: { $regexMatch: { input: { $trim: { input: fullName, chars: ' ' } }, regex: $regex, options: $options } } });
  }
  if (filter.subscriberId) conditions.push({ subscriberId: filter.subscriberId });
  return allOf(...conditions);
}

/** SubscriberRepository on MongoDB: one document per (environment, subscriberId), held by a unique index. */
export class MongoSubscriberRepository implements SubscriberRepository {
  constructor(private readonly store: MongoStore) {}

  private get subscribers() {
    return this.store.collection(COLLECTIONS.subscribers);
  }

  async findBySubscriberId(scope: EnvironmentScope, subscriberId: string): Promise<Subscriber | null> {
    const doc = await this.subscribers.findOne({ environmentId: scope.environmentId, subscriberId });
    return doc ? subscriberDocuments.toDomain(doc) : null;
  }

  async findManyBySubscriberIds(scope: EnvironmentScope, subscriberIds: string[]): Promise<Subscriber[]> {
    if (subscriberIds.length === 0) return [];
    return this.findMany({ environmentId: scope.environmentId, subscriberId: { $in: subscriberIds } });
  }

  async findManyByIds(scope: EnvironmentScope, ids: string[]): Promise<Subscriber[]> {
    if (ids.length === 0) return [];
    return this.findMany({ environmentId: scope.environmentId, _id: { $in: ids } });
  }

  async listBatch(scope: EnvironmentScope, afterCursor: string | null, limit: number): Promise<{ subscribers: Subscriber[]; next: string | null }> {
    const filter = { environmentId: scope.environmentId, ...(afterCursor !== null ? { _id: { $gt: afterCursor } } : {}) };
    const docs = await this.subscribers.find(filter, { sort: { _id: 1 }, limit: limit + 1 }).toArray();
    const batch = docs.slice(0, limit).map((doc) => subscriberDocuments.toDomain(doc));
    return { subscribers: batch, next: docs.length > limit ? batch[batch.length - 1].id : null };
  }

  async listPage(scope: EnvironmentScope, { page, limit }: PageRequest): Promise<{ items: Subscriber[]; hasMore: boolean }> {
    const docs = await this.subscribers.find({ environmentId: scope.environmentId }, { sort: { _id: 1 }, skip: page * limit, limit: limit + 1 }).toArray();
    return { items: docs.slice(0, limit).map((doc) => subscriberDocuments.toDomain(doc)), hasMore: docs.length > limit };
  }

  async insert(subscriber: Subscriber): Promise<boolean> {
    try {
      await this.subscribers.insertOne(subscriberDocuments.toDocument(subscriber));
      return true;
    } catch (error) {
      // the subscriberId taken means "exists"; a clash of ids is a refusal
      if (isDuplicateKey(error) && (await this.findBySubscriberId(subscriber, subscriber.subscriberId))) return false;
      throw error;
    }
  }

  async upsert(scope: EnvironmentScope, upsert: SubscriberUpsert): Promise<{ subscriber: Subscriber; created: boolean }> {
    const fields = changedFields(upsert.changes);
    if (!fields.length) {
      // Nothing to change (a trigger naming a known subscriber): a read, not a write.
      const existing = await this.findBySubscriberId(scope, upsert.subscriberId);
      if (existing) return { subscriber: existing, created: false };
    }
    const { $set, $unset } = subscriberChange(upsert.changes, fields);
    const born = { _id: upsert.id, organizationId: scope.organizationId, channels: [], createdAt: upsert.now };
    const update = updateOf({
      $setOnInsert: fields.length ? born : { ...born, updatedAt: upsert.now },
      $set: fields.length ? { ...$set, updatedAt: upsert.now } : undefined,
      $unset,
    });
    const filter = { environmentId: scope.environmentId, subscriberId: upsert.subscriberId };
    const { doc, created } = await upsertOne(this.subscribers, filter, update);
    return { subscriber: subscriberDocuments.toDomain(doc), created };
  }

  async update(scope: EnvironmentScope, subscriberId: string, changes: SubscriberChanges, now: Date): Promise<Subscriber | null> {
    const { $set, $unset } = subscriberChange(changes, changedFields(changes));
    const doc = await this.subscribers.findOneAndUpdate(
      { environmentId: scope.environmentId, subscriberId },
      updateOf({ $set: { ...$set, updatedAt: now }, $unset }),
      { returnDocument: 'after' },
    );
    return doc ? subscriberDocuments.toDomain(doc) : null;
  }

  async replaceChannels(
    scope: EnvironmentScope,
    subscriberId: string,
    expected: SubscriberChannel[],
    next: SubscriberChannel[],
    now: Date,
  ): Promise<Subscriber | null> {
    // Stored channels have their keys sorted (mongo-json), so the list read back compares equal to what is stored.
    const doc = await this.subscribers.findOneAndUpdate(
      { environmentId: scope.environmentId, subscriberId, channels: { $eq: toStoredJson(expected) } },
      { $set: { channels: toStoredJson(next), updatedAt: now } },
      { returnDocument: 'after' },
    );
    return doc ? subscriberDocuments.toDomain(doc) : null;
  }

  async delete(scope: EnvironmentScope, subscriberId: string): Promise<boolean> {
    return (await this.subscribers.deleteOne({ environmentId: scope.environmentId, subscriberId })).deletedCount === 1;
  }

  search(scope: EnvironmentScope, search: SubscriberSearch): Promise<CursorPage<Subscriber>> {
    return cursorListPage(
      {
        collection: this.subscribers,
        environmentId: scope.environmentId,
        filter: subscriberSearchFilter(scope.environmentId, search.filter),
        field: ORDER_FIELDS[search.orderBy],
        request: search,
      },
      (doc) => subscriberDocuments.toDomain(doc),
    );
  }

  private async findMany(filter: mongo.Filter<Doc>): Promise<Subscriber[]> {
    const docs = await this.subscribers.find(filter, { sort: { _id: 1 } }).toArray();
    return docs.map((doc) => subscriberDocuments.toDomain(doc));
  }
}
