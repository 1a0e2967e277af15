import { CursorPage, EnvironmentScope, Page, PageRequest } from '@app/kernel';
import {
  SubscriberSubscriptionSearch,
  Topic,
  TopicMember,
  TopicMemberPreference,
  TopicRepository,
  TopicSearch,
  TopicSearchFilter,
  TopicSubscription,
  TopicSubscriptionChanges,
  TopicSubscriptionSearch,
} from '@app/subscribers';
import { mongo } from 'mongoose';
import { CursorOrderField, allOf, containsIgnoringCase, cursorListPage } from '../mongo-cursor-page';
import { Doc, DocumentMapper, updateOf } from '../mongo-documents';
import { insertManyUnlessDuplicate, insertUnlessDuplicate, upsertOne } from '../mongo-writes';
import { COLLECTIONS, MongoStore } from '../mongo-store';

export const topicDocuments = new DocumentMapper<Topic>({ fields: ['organizationId', 'environmentId', 'key', 'name', 'createdAt', 'updatedAt'] });
export const topicSubscriptionDocuments = new DocumentMapper<TopicSubscription>({
  fields: ['organizationId', 'environmentId', 'topicId', 'topicKey', 'subscriberInternalId', 'subscriberId', 'name', 'preferences', 'createdAt', 'updatedAt'],
  json: ['preferences'],
});

// Keys sort by code point: MongoDB compares strings by their UTF-8 bytes, which is code point order (SQL's COLLATE "C").
const ORDER_FIELDS: Record<TopicSearch['orderBy'], CursorOrderField> = { _id: '_id', createdAt: 'createdAt', updatedAt: 'updatedAt', key: 'key' };

/** The filter of a topic search: case-insensitive substrings of the key and the name. */
export function topicSearchFilter(environmentId: string, filter: TopicSearchFilter): mongo.Filter<Doc> {
  return allOf({ environmentId }, filter.key ? { key: containsIgnoringCase(filter.key) } : {}, filter.name ? { name: containsIgnoringCase(filter.name) } : {});
}

/** The upsert of a topic: created with its id, or renamed when a name is given (updatedAt moves only then). */
export function topicUpsert(topic: Topic) {
  const born = { _id: topic.id, organizationId: topic.organizationId, createdAt: topic.createdAt };
  return {
    filter: { environmentId: topic.environmentId, key: topic.key },
    update: updateOf({
      $setOnInsert: topic.name === undefined ? { ...born, updatedAt: topic.updatedAt } : born,
      $set: topic.name === undefined ? undefined : { name: topic.name, updatedAt: topic.updatedAt },
    }),
  };
}

/** A membership change: a name given replaces it, preferences given replace them ([] removes them). */
export function subscriptionChange(changes: TopicSubscriptionChanges, now: Date): Doc {
  const $set: Doc = { updatedAt: now };
  const $unset: Doc = {};
  if (changes.name !== undefined) $set.name = changes.name;
  if (changes.preferences !== undefined) {
    if (changes.preferences.length) $set.preferences = topicSubscriptionDocuments.field('preferences', changes.preferences);
    else $unset.preferences = '';
  }
  return updateOf({ $set, $unset });
}

/**
 * Topics and memberships on MongoDB. Memberships are found through the topic's current id (looked
 * up by key first), so those of a deleted topic never resurface under a new topic of the same key.
 */
export class MongoTopicRepository implements TopicRepository {
  constructor(private readonly store: MongoStore) {}

  private get topics() {
    return this.store.collection(COLLECTIONS.topics);
  }

  private get memberships() {
    return this.store.collection(COLLECTIONS.topicSubscriptions);
  }

  async upsert(topic: Topic): Promise<{ topic: Topic; created: boolean }> {
    const { filter, update } = topicUpsert(topic);
    const { doc, created } = await upsertOne(this.topics, filter, update);
    return { topic: topicDocuments.toDomain(doc), created };
  }

  insert(topic: Topic): Promise<boolean> {
    return insertUnlessDuplicate(() => this.topics.insertOne(topicDocuments.toDocument(topic)), 'key');
  }

  async findByKey(scope: EnvironmentScope, key: string): Promise<Topic | null> {
    const doc = await this.topics.findOne({ environmentId: scope.environmentId, key });
    return doc ? topicDocuments.toDomain(doc) : null;
  }

  async rename(scope: EnvironmentScope, key: string, name: string, now: Date): Promise<Topic | null> {
    const doc = await this.topics.findOneAndUpdate(
      { environmentId: scope.environmentId, key },
      { $set: { name, updatedAt: now } },
      { returnDocument: 'after' },
    );
    return doc ? topicDocuments.toDomain(doc) : null;
  }

  async delete(scope: EnvironmentScope, key: string): Promise<boolean> {
    const deleted = await this.topics.findOneAndDelete({ environmentId: scope.environmentId, key }, { projection: { _id: 1 } });
    if (!deleted) return false;
    await this.memberships.deleteMany({ topicId: deleted._id });
    return true;
  }

  search(scope: EnvironmentScope, search: TopicSearch): Promise<CursorPage<Topic>> {
    return cursorListPage(
      {
        collection: this.topics,
        environmentId: scope.environmentId,
        filter: topicSearchFilter(scope.environmentId, search.filter),
        field: ORDER_FIELDS[search.orderBy],
        request: search,
      },
      (doc) => topicDocuments.toDomain(doc),
    );
  }

  async list(scope: EnvironmentScope, { page, limit }: PageRequest, filter: { key?: string }): Promise<Page<Topic>> {
    const where = { environmentId: scope.environmentId, ...(filter.key !== undefined ? { key: filter.key } : {}) };
    const [docs, totalCount] = await Promise.all([
      this.topics.find(where, { sort: { _id: 1 }, skip: page * limit, limit }).toArray(),
      this.topics.countDocuments(where),
    ]);
    return { items: docs.map((doc) => topicDocuments.toDomain(doc)), totalCount };
  }

  async addSubscriptions(topic: Topic, members: TopicMember[], now: Date, newId: () => string): Promise<TopicSubscription[]> {
    if (members.length === 0) return [];
    const docs = members.map((m) =>
      topicSubscriptionDocuments.toDocument({
        id: newId(),
        organizationId: topic.organizationId,
        environmentId: topic.environmentId,
        topicId: topic.id,
        topicKey: topic.key,
        subscriberInternalId: m.subscriberInternalId,
        subscriberId: m.subscriberId,
        createdAt: now,
        updatedAt: now,
      }),
    );
    // A member already there is skipped by the (topic, subscriber) unique index.
    await insertManyUnlessDuplicate(this.memberships, docs as { _id: string }[]);
    const stored = await this.memberships.find({ topicId: topic.id, subscriberId: { $in: members.map((m) => m.subscriberId) } }).toArray();
    const bySubscriber = new Map(stored.map((doc) => [doc.subscriberId as string, topicSubscriptionDocuments.toDomain(doc)]));
    return members.map((m) => bySubscriber.get(m.subscriberId)).filter((s): s is TopicSubscription => s !== undefined);
  }

  async removeSubscriptions(scope: EnvironmentScope, topicKey: string, subscriberIds: string[]): Promise<TopicSubscription[]> {
    if (subscriberIds.length === 0) return [];
    const topicId = await this.topicIdOf(scope, topicKey);
    if (topicId === null) return [];
    const filter = { topicId, subscriberId: { $in: subscriberIds } };
    const docs = await this.memberships.find(filter).toArray();
    // Answer only what this call deleted: a concurrent remove may take some first.
    const gone: Doc[] = [];
    for (const doc of docs) if ((await this.memberships.deleteOne({ _id: doc._id })).deletedCount === 1) gone.push(doc);
    const bySubscriber = new Map(gone.map((doc) => [doc.subscriberId as string, topicSubscriptionDocuments.toDomain(doc)]));
    return subscriberIds.map((id) => bySubscriber.get(id)).filter((s): s is TopicSubscription => s !== undefined);
  }

  async listSubscriptions(scope: EnvironmentScope, topicKey: string, search: TopicSubscriptionSearch): Promise<CursorPage<TopicSubscription>> {
    const topicId = await this.topicIdOf(scope, topicKey);
    return cursorListPage(
      {
        collection: this.memberships,
        environmentId: scope.environmentId,
        filter: allOf(
          { environmentId: scope.environmentId, topicId: topicId ?? { $in: [] } },
          search.subscriberId ? { subscriberId: search.subscriberId } : {},
        ),
        field: ORDER_FIELDS[search.orderBy],
        request: search,
      },
      (doc) => topicSubscriptionDocuments.toDomain(doc),
    );
  }

  async listSubscriptionsOfSubscriber(
    scope: EnvironmentScope,
    subscriberId: string,
    search: SubscriberSubscriptionSearch,
  ): Promise<CursorPage<TopicSubscription>> {
    // Only memberships of topics that exist now (and of the key asked for), as listSubscriptions finds them.
    const topicIds: unknown[] = await this.memberships.distinct('topicId', { environmentId: scope.environmentId, subscriberId });
    const live = await this.topics
      .find(
        { environmentId: scope.environmentId, _id: { $in: topicIds as string[] }, ...(search.topicKey !== undefined ? { key: search.topicKey } : {}) },
        { projection: { _id: 1 } },
      )
      .toArray();
    return cursorListPage(
      {
        collection: this.memberships,
        environmentId: scope.environmentId,
        filter: { environmentId: scope.environmentId, subscriberId, topicId: { $in: live.map((doc) => doc._id) } },
        field: ORDER_FIELDS[search.orderBy],
        request: search,
      },
      (doc) => topicSubscriptionDocuments.toDomain(doc),
    );
  }

  async findByKeys(scope: EnvironmentScope, keys: string[]): Promise<Topic[]> {
    if (keys.length === 0) return [];
    const docs = await this.topics.find({ environmentId: scope.environmentId, key: { $in: [...new Set(keys)] } }).toArray();
    return docs.map((doc) => topicDocuments.toDomain(doc));
  }

  async updateSubscription(
    scope: EnvironmentScope,
    topicKey: string,
    subscriberId: string,
    changes: TopicSubscriptionChanges,
    now: Date,
  ): Promise<TopicSubscription | null> {
    const topicId = await this.topicIdOf(scope, topicKey);
    if (topicId === null) return null;
    const doc = await this.memberships.findOneAndUpdate({ topicId, subscriberId }, subscriptionChange(changes, now), { returnDocument: 'after' });
    return doc ? topicSubscriptionDocuments.toDomain(doc) : null;
  }

  async listMemberIds(
    scope: EnvironmentScope,
    topicKey: string,
    afterCursor: string | null,
    limit: number,
  ): Promise<{ subscriberIds: string[]; next: string | null }> {
    const topicId = await this.topicIdOf(scope, topicKey);
    if (topicId === null) return { subscriberIds: [], next: null };
    const docs = await this.memberships
      .find(
        { topicId, ...(afterCursor !== null ? { _id: { $gt: afterCursor } } : {}) },
        { sort: { _id: 1 }, limit: limit + 1, projection: { subscriberId: 1 } },
      )
      .toArray();
    const batch = docs.slice(0, limit);
    return { subscriberIds: batch.map((doc) => doc.subscriberId), next: docs.length > limit ? batch[batch.length - 1]._id : null };
  }

  async listMembersFor(
    scope: EnvironmentScope,
    topicKey: string,
    workflowId: string,
    afterCursor: string | null,
    limit: number,
  ): Promise<{ members: TopicMemberPreference[]; next: string | null }> {
    const topicId = await this.topicIdOf(scope, topicKey);
    if (topicId === null) return { members: [], next: null };
    // The same page as listMemberIds, each membership read whole: its preferences are decoded by the mapper.
    const docs = await this.memberships
      .find({ topicId, ...(afterCursor !== null ? { _id: { $gt: afterCursor } } : {}) }, { sort: { _id: 1 }, limit: limit + 1 })
      .toArray();
    const batch = docs.slice(0, limit);
    return {
      members: batch.map((doc) => {
        const preference = topicSubscriptionDocuments.toDomain(doc).preferences?.find((p) => p.workflowId === workflowId);
        return { subscriberId: doc.subscriberId as string, ...(preference ? { preference } : {}) };
      }),
      next: docs.length > limit ? batch[batch.length - 1]._id : null,
    };
  }

  async topicKeysOfSubscribers(scope: EnvironmentScope, subscriberIds: string[]): Promise<Map<string, string[]>> {
    const keys = new Map<string, string[]>(subscriberIds.map((id) => [id, []]));
    if (subscriberIds.length === 0) return keys;
    const memberships = await this.memberships
      .find({ environmentId: scope.environmentId, subscriberId: { $in: subscriberIds } }, { projection: { subscriberId: 1, topicId: 1 } })
      .toArray();
    const topics = await this.topics.find({ _id: { $in: [...new Set(memberships.map((m) => m.topicId as string))] } }, { projection: { key: 1 } }).toArray();
    const keyOf = new Map(topics.map((t) => [t._id, t.key as string]));
    for (const membership of memberships) {
      const key = keyOf.get(membership.topicId);
      if (key !== undefined) keys.get(membership.subscriberId)?.push(key);
    }
    for (const list of keys.values()) list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return keys;
  }

  async removeSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<void> {
    await this.memberships.deleteMany({ environmentId: scope.environmentId, subscriberId });
  }

  private async topicIdOf(scope: EnvironmentScope, key: string): Promise<string | null> {
    const doc = await this.topics.findOne({ environmentId: scope.environmentId, key }, { projection: { _id: 1 } });
    return doc ? doc._id : null;
  }
}
