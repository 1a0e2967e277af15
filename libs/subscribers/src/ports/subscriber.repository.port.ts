import { CursorPage, CursorRequest, EnvironmentScope, PageRequest } from '@app/kernel';
import { Subscriber, SubscriberChannel } from '../domain/subscriber';
import { SubscriberChanges, SubscriberOrderField, SubscriberSearchFilter } from '../domain/subscriber-changes';

/** What an upsert needs besides the changes: the id and time to use should it create the subscriber. */
export interface SubscriberUpsert {
  id: string;
  subscriberId: string;
  changes: SubscriberChanges;
  now: Date;
}

export interface SubscriberSearch extends CursorRequest {
  orderBy: SubscriberOrderField;
  filter: SubscriberSearchFilter;
}

/**
 * Subscribers of one environment. Every method is one atomic operation on the store, so the
 * same contract holds on PostgreSQL, PGlite and MongoDB.
 */
export interface SubscriberRepository {
  findBySubscriberId(scope: EnvironmentScope, subscriberId: string): Promise<Subscriber | null>;
  /** Batch lookup (fan-out, topics); unknown ids are simply absent from the result. */
  findManyBySubscriberIds(scope: EnvironmentScope, subscriberIds: string[]): Promise<Subscriber[]>;
  /** Batch lookup by internal `_id` (messages and notifications embed their subscriber). */
  findManyByIds(scope: EnvironmentScope, ids: string[]): Promise<Subscriber[]>;
  /** Inserts unless the environment already has that subscriberId; false then. */
  insert(subscriber: Subscriber): Promise<boolean>;
  /**
   * Creates the subscriber with the changes, or applies them to the existing one (undefined stays,
   * null clears), in one atomic step: concurrent upserts of one subscriberId never make two.
   */
  upsert(scope: EnvironmentScope, upsert: SubscriberUpsert): Promise<{ subscriber: Subscriber; created: boolean }>;
  /** Applies the changes to an existing subscriber; null when there is none. */
  update(scope: EnvironmentScope, subscriberId: string, changes: SubscriberChanges, now: Date): Promise<Subscriber | null>;
  /**
   * Compare-and-set of the channel list: writes `next` only if the stored channels still equal
   * `expected`. Null when the subscriber is gone or its channels changed meanwhile (re-read and retry).
   */
  replaceChannels(
    scope: EnvironmentScope,
    subscriberId: string,
    expected: SubscriberChannel[],
    next: SubscriberChannel[],
    now: Date,
  ): Promise<Subscriber | null>;
  /** True when a subscriber was deleted. */
  delete(scope: EnvironmentScope, subscriberId: string): Promise<boolean>;
  /**
   * Broadcast fan-out: the environment's subscribers in a stable order (internal id), `limit` at a
   * time after the cursor; `next` is the cursor of the following batch, null after the last. One
   * indexed range read per batch, so walking every subscriber holds one batch in memory at a time.
   */
  listBatch(scope: EnvironmentScope, afterCursor: string | null, limit: number): Promise<{ subscribers: Subscriber[]; next: string | null }>;
  /**
   * Novu's v1 list: the environment's subscribers oldest first (internal id), page by page (0-based);
   * `hasMore` when a later page holds any. No total: counting a large environment is not worth it.
   */
  listPage(scope: EnvironmentScope, page: PageRequest): Promise<{ items: Subscriber[]; hasMore: boolean }>;
  /** Cursor search as Novu's GET /v2/subscribers; an unknown cursor gives an empty page. */
  search(scope: EnvironmentScope, search: SubscriberSearch): Promise<CursorPage<Subscriber>>;
}
export const SUBSCRIBER_REPOSITORY = Symbol('SubscriberRepository');
