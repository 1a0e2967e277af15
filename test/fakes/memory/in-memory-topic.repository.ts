import { CursorPage, EnvironmentScope, Page, PageRequest } from '@app/kernel';
import {
  SubscriberSubscriptionSearch,
  Topic,
  TopicMember,
  TopicMemberPreference,
  TopicRepository,
  TopicSearch,
  TopicSubscription,
  TopicSubscriptionChanges,
  TopicSubscriptionSearch,
} from '@app/subscribers';
import {
  containsIgnoringCase,
  copy,
  cursorPage,
  orderBy,
  pageOf,
  shaped,
  stored,
  uniqueViolation,
  EnvironmentRecords,
  deleteEnvironmentRecords,
} from './memory-records';

const ORDER_VALUES = {
  _id: (row: { id: string }) => row.id,
  createdAt: (row: { createdAt: Date }) => row.createdAt,
  updatedAt: (row: { updatedAt: Date }) => row.updatedAt,
  key: (row: { key: string }) => row.key,
} as const;

const toTopic = (t: Topic): Topic => shaped(t, ['id', 'organizationId', 'environmentId', 'key', 'createdAt', 'updatedAt'], ['name']);

/**
 * TopicRepository in memory: one topic per (environment, key), one membership per (topic id,
 * subscriberId). Memberships are found through the topic's current id, so those of a deleted
 * topic never resurface under a new topic of the same key.
 */
export class InMemoryTopicRepository implements TopicRepository, EnvironmentRecords {
  private readonly topics = new Map<string, Topic>();
  private readonly memberships = new Map<string, TopicSubscription>();

  async upsert(topic: Topic): Promise<{ topic: Topic; created: boolean }> {
    const given = toTopic(stored(topic));
    const existing = this.findTopic(given.environmentId, given.key);
    if (existing) {
      if (given.name !== undefined) {
        existing.name = given.name;
        existing.updatedAt = given.updatedAt;
      }
      return { topic: copy(existing), created: false };
    }
    this.insertTopic(given);
    return { topic: copy(given), created: true };
  }

  async insert(topic: Topic): Promise<boolean> {
    const given = toTopic(stored(topic));
    if (this.findTopic(given.environmentId, given.key)) return false;
    this.insertTopic(given);
    return true;
  }

  async findByKey(scope: EnvironmentScope, key: string): Promise<Topic | null> {
    const topic = this.findTopic(scope.environmentId, key);
    return topic ? copy(topic) : null;
  }

  async rename(scope: EnvironmentScope, key: string, name: string, now: Date): Promise<Topic | null> {
    const topic = this.findTopic(scope.environmentId, key);
    if (!topic) return null;
    topic.name = stored(name);
    topic.updatedAt = new Date(now);
    return copy(topic);
  }

  async delete(scope: EnvironmentScope, key: string): Promise<boolean> {
    const topic = this.findTopic(scope.environmentId, key);
    if (!topic) return false;
    this.topics.delete(topic.id);
    for (const membership of this.membershipsOf(topic.id)) this.memberships.delete(membership.id);
    return true;
  }

  async search(scope: EnvironmentScope, search: TopicSearch): Promise<CursorPage<Topic>> {
    const { filter } = search;
    return cursorPage({
      environmentRows: [...this.topics.values()].filter((t) => t.environmentId === scope.environmentId),
      orderValue: ORDER_VALUES[search.orderBy],
      request: search,
      matches: (t) => (!filter.key || containsIgnoringCase(t.key, filter.key)) && (!filter.name || containsIgnoringCase(t.name, filter.name)),
    });
  }

  async list(scope: EnvironmentScope, { page, limit }: PageRequest, filter: { key?: string }): Promise<Page<Topic>> {
    const matching = [...this.topics.values()]
      .filter((t) => t.environmentId === scope.environmentId && (filter.key === undefined || t.key === filter.key))
      .sort(orderBy((t) => t.id));
    return { items: pageOf(matching, page, limit).map(copy), totalCount: matching.length };
  }

  async addSubscriptions(topic: Topic, members: TopicMember[], now: Date, newId: () => string): Promise<TopicSubscription[]> {
    if (members.length === 0) return [];
    const { topic: target, members: given } = stored({ topic, members });
    // Every member gets an id drawn, as the SQL insert does, whether or not it is a member already.
    const rows = given.map((m): TopicSubscription => ({
      id: newId(),
      organizationId: target.organizationId,
      environmentId: target.environmentId,
      topicId: target.id,
      topicKey: target.key,
      subscriberInternalId: m.subscriberInternalId,
      subscriberId: m.subscriberId,
      createdAt: new Date(now),
      updatedAt: new Date(now),
    }));
    const current = new Map(this.membershipsOf(target.id).map((s) => [s.subscriberId, s]));
    for (const row of rows) {
      if (current.has(row.subscriberId)) continue;
      if (this.memberships.has(row.id)) throw uniqueViolation('topic_subscriptions');
      current.set(row.subscriberId, row);
    }
    for (const row of current.values()) this.memberships.set(row.id, row);
    return members
      .map((m) => current.get(m.subscriberId))
      .filter((s): s is TopicSubscription => s !== undefined)
      .map(copy);
  }

  async removeSubscriptions(scope: EnvironmentScope, topicKey: string, subscriberIds: string[]): Promise<TopicSubscription[]> {
    const topic = this.findTopic(scope.environmentId, topicKey);
    if (!topic || subscriberIds.length === 0) return [];
    const wanted = new Set(subscriberIds);
    const removed = new Map<string, TopicSubscription>();
    for (const membership of this.membershipsOf(topic.id)) {
      if (!wanted.has(membership.subscriberId)) continue;
      this.memberships.delete(membership.id);
      removed.set(membership.subscriberId, membership);
    }
    return subscriberIds
      .map((id) => removed.get(id))
      .filter((s): s is TopicSubscription => s !== undefined)
      .map(copy);
  }

  async listSubscriptions(scope: EnvironmentScope, topicKey: string, search: TopicSubscriptionSearch): Promise<CursorPage<TopicSubscription>> {
    const topicId = this.findTopic(scope.environmentId, topicKey)?.id;
    return cursorPage({
      environmentRows: [...this.memberships.values()].filter((s) => s.environmentId === scope.environmentId),
      orderValue: ORDER_VALUES[search.orderBy],
      request: search,
      matches: (s) => topicId !== undefined && s.topicId === topicId && (!search.subscriberId || s.subscriberId === search.subscriberId),
    });
  }

  async listSubscriptionsOfSubscriber(
    scope: EnvironmentScope,
    subscriberId: string,
    search: SubscriberSubscriptionSearch,
  ): Promise<CursorPage<TopicSubscription>> {
    return cursorPage({
      environmentRows: [...this.memberships.values()].filter((s) => s.environmentId === scope.environmentId),
      orderValue: ORDER_VALUES[search.orderBy],
      request: search,
      matches: (s) => {
        const topic = this.topics.get(s.topicId);
        return s.subscriberId === subscriberId && topic !== undefined && (search.topicKey === undefined || topic.key === search.topicKey);
      },
    });
  }

  async findByKeys(scope: EnvironmentScope, keys: string[]): Promise<Topic[]> {
    const wanted = new Set(keys);
    return [...this.topics.values()].filter((t) => t.environmentId === scope.environmentId && wanted.has(t.key)).map(copy);
  }

  async updateSubscription(
    scope: EnvironmentScope,
    topicKey: string,
    subscriberId: string,
    changes: TopicSubscriptionChanges,
    now: Date,
  ): Promise<TopicSubscription | null> {
    const topic = this.findTopic(scope.environmentId, topicKey);
    const membership = topic && this.membershipsOf(topic.id).find((s) => s.subscriberId === subscriberId);
    if (!membership) return null;
    const given = stored(changes);
    if (given.name !== undefined) membership.name = given.name;
    if (given.preferences !== undefined) {
      if (given.preferences.length) membership.preferences = given.preferences;
      else delete membership.preferences;
    }
    membership.updatedAt = new Date(now);
    return copy(membership);
  }

  async listMemberIds(
    scope: EnvironmentScope,
    topicKey: string,
    afterCursor: string | null,
    limit: number,
  ): Promise<{ subscriberIds: string[]; next: string | null }> {
    const batch = this.membersPage(scope, topicKey, null, afterCursor, limit);
    return { subscriberIds: batch.members.map((m) => m.subscriberId), next: batch.next };
  }

  async listMembersFor(
    scope: EnvironmentScope,
    topicKey: string,
    workflowId: string,
    afterCursor: string | null,
    limit: number,
  ): Promise<{ members: TopicMemberPreference[]; next: string | null }> {
    return this.membersPage(scope, topicKey, workflowId, afterCursor, limit);
  }

  private membersPage(
    scope: EnvironmentScope,
    topicKey: string,
    workflowId: string | null,
    afterCursor: string | null,
    limit: number,
  ): { members: TopicMemberPreference[]; next: string | null } {
    const topic = this.findTopic(scope.environmentId, topicKey);
    if (!topic) return { members: [], next: null };
    const rows = this.membershipsOf(topic.id)
      .filter((s) => afterCursor === null || s.id > afterCursor)
      .sort(orderBy((s) => s.id))
      .slice(0, limit + 1);
    const batch = rows.slice(0, limit);
    return {
      members: batch.map((s) => {
        const preference = s.preferences?.find((p) => p.workflowId === workflowId);
        return { subscriberId: s.subscriberId, ...(preference ? { preference: copy(preference) } : {}) };
      }),
      next: rows.length > limit ? batch[batch.length - 1].id : null,
    };
  }

  async topicKeysOfSubscribers(scope: EnvironmentScope, subscriberIds: string[]): Promise<Map<string, string[]>> {
    const keys = new Map<string, string[]>(subscriberIds.map((id) => [id, []]));
    const rows: { subscriberId: string; key: string }[] = [];
    for (const membership of this.memberships.values()) {
      if (membership.environmentId !== scope.environmentId || !keys.has(membership.subscriberId)) continue;
      const topic = this.topics.get(membership.topicId);
      if (topic) rows.push({ subscriberId: membership.subscriberId, key: topic.key });
    }
    rows.sort(orderBy((row) => row.key));
    for (const row of rows) keys.get(row.subscriberId)!.push(row.key);
    return keys;
  }

  async removeSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<void> {
    for (const membership of [...this.memberships.values()]) {
      if (membership.environmentId === scope.environmentId && membership.subscriberId === subscriberId) this.memberships.delete(membership.id);
    }
  }

  private insertTopic(topic: Topic): void {
    if (this.topics.has(topic.id)) throw uniqueViolation('topics');
    this.topics.set(topic.id, topic);
  }

  private findTopic(environmentId: string, key: string): Topic | undefined {
    return [...this.topics.values()].find((t) => t.environmentId === environmentId && t.key === key);
  }

  private membershipsOf(topicId: string): TopicSubscription[] {
    return [...this.memberships.values()].filter((s) => s.topicId === topicId);
  }

  purgeEnvironment(environmentId: string): number {
    return deleteEnvironmentRecords(this.topics, environmentId) + deleteEnvironmentRecords(this.memberships, environmentId);
  }
}
