import { CursorPage, CursorRequest, EnvironmentScope, Page, PageRequest } from '@app/kernel';
import { Topic, TopicOrderField, TopicSearchFilter, TopicSubscription, TopicSubscriptionPreference } from '../domain/topic';

export interface TopicSearch extends CursorRequest {
  orderBy: TopicOrderField;
  filter: TopicSearchFilter;
}

export interface TopicSubscriptionSearch extends CursorRequest {
  orderBy: Exclude<TopicOrderField, 'key'>;
  /** Exact subscriberId. */
  subscriberId?: string;
}

export interface SubscriberSubscriptionSearch extends CursorRequest {
  orderBy: Exclude<TopicOrderField, 'key'>;
  /** Exact topic key. */
  topicKey?: string;
}

/** What a subscription update may change; a field left out stays. */
export interface TopicSubscriptionChanges {
  name?: string;
  /** Replaces the stored preferences; [] removes them. */
  preferences?: TopicSubscriptionPreference[];
}

/** The subscriber a new membership is for. */
export interface TopicMember {
  subscriberInternalId: string;
  subscriberId: string;
}

/** A member as a trigger of one workflow reaches it: its subscription's preference for that workflow, if any. */
export interface TopicMemberPreference {
  subscriberId: string;
  preference?: TopicSubscriptionPreference;
}

/** Topics of one environment and their memberships; every method is one atomic store operation. */
export interface TopicRepository {
  /**
   * Creates the topic (with `topic.id`) or, when the key exists, sets its name if one is given.
   * `created` tells which happened; concurrent calls never make two topics of one key.
   */
  upsert(topic: Topic): Promise<{ topic: Topic; created: boolean }>;
  /** Inserts unless the key exists; false then. */
  insert(topic: Topic): Promise<boolean>;
  findByKey(scope: EnvironmentScope, key: string): Promise<Topic | null>;
  /** Null when there is no such topic. */
  rename(scope: EnvironmentScope, key: string, name: string, now: Date): Promise<Topic | null>;
  /** Deletes the topic with its memberships; false when there was none. */
  delete(scope: EnvironmentScope, key: string): Promise<boolean>;
  search(scope: EnvironmentScope, search: TopicSearch): Promise<CursorPage<Topic>>;
  /** Novu's v1 list: oldest first, page by page (0-based), optionally the one topic of an exact key; with the total. */
  list(scope: EnvironmentScope, page: PageRequest, filter: { key?: string }): Promise<Page<Topic>>;

  /**
   * Adds the members that are not members yet (ids from `newId`), and returns the memberships of
   * all given members, old and new, in the order given.
   */
  addSubscriptions(topic: Topic, members: TopicMember[], now: Date, newId: () => string): Promise<TopicSubscription[]>;
  /** Removes memberships of those subscriberIds; returns the removed ones. */
  removeSubscriptions(scope: EnvironmentScope, topicKey: string, subscriberIds: string[]): Promise<TopicSubscription[]>;
  listSubscriptions(scope: EnvironmentScope, topicKey: string, search: TopicSubscriptionSearch): Promise<CursorPage<TopicSubscription>>;
  /** The memberships of one subscriber (by subscriberId), over all topics of the environment. */
  listSubscriptionsOfSubscriber(scope: EnvironmentScope, subscriberId: string, search: SubscriberSubscriptionSearch): Promise<CursorPage<TopicSubscription>>;
  /** The topics of those keys that exist, in any order. */
  findByKeys(scope: EnvironmentScope, keys: string[]): Promise<Topic[]>;
  /** Changes one membership; null when the subscriber is not a member of that topic. */
  updateSubscription(
    scope: EnvironmentScope,
    topicKey: string,
    subscriberId: string,
    changes: TopicSubscriptionChanges,
    now: Date,
  ): Promise<TopicSubscription | null>;
  /**
   * Fan-out: subscriberIds of a topic's members in a stable order, `limit` at a time after the
   * cursor; `next` is the cursor of the following batch, null after the last.
   */
  listMemberIds(
    scope: EnvironmentScope,
    topicKey: string,
    afterCursor: string | null,
    limit: number,
  ): Promise<{ subscriberIds: string[]; next: string | null }>;
  /**
   * Fan-out of a trigger of workflow `workflowId`: listMemberIds' batch (same order, same cursors),
   * each member with its subscription's own preference for that workflow where it set one.
   */
  listMembersFor(
    scope: EnvironmentScope,
    topicKey: string,
    workflowId: string,
    afterCursor: string | null,
    limit: number,
  ): Promise<{ members: TopicMemberPreference[]; next: string | null }>;
  /** Topic keys of each given subscriber (subscribers without topics map to []). */
  topicKeysOfSubscribers(scope: EnvironmentScope, subscriberIds: string[]): Promise<Map<string, string[]>>;
  /** Removes every membership of a subscriber (it is being deleted). */
  removeSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<void>;
}
export const TOPIC_REPOSITORY = Symbol('TopicRepository');
