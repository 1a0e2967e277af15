import { CursorPage, EnvironmentScope, PageRequest } from '@app/kernel';
import {
  SUBSCRIBER_PROFILE_FIELDS,
  Subscriber,
  SubscriberChanges,
  SubscriberChannel,
  SubscriberRepository,
  SubscriberSearch,
  SubscriberUpsert,
  clearedAfter,
} from '@app/subscribers';
import {
  containsIgnoringCase,
  copy,
  cursorPage,
  orderBy,
  sameJson,
  shaped,
  stored,
  uniqueViolation,
  EnvironmentRecords,
  deleteEnvironmentRecords,
} from './memory-records';

/** The fields a change may set (what the SQL adapter has columns for). */
const CHANGE_FIELDS = [...SUBSCRIBER_PROFILE_FIELDS, 'data'] as const;
type ChangeField = (typeof CHANGE_FIELDS)[number];

const REQUIRED = ['id', 'organizationId', 'environmentId', 'subscriberId', 'channels', 'createdAt', 'updatedAt'] as const;

const ORDER_VALUES = {
  _id: (s: Subscriber) => s.id,
  createdAt: (s: Subscriber) => s.createdAt,
  updatedAt: (s: Subscriber) => s.updatedAt,
} as const;

const byId = orderBy<Subscriber>((s) => s.id);

/** The fields a change really sets: undefined stays as it is. */
const changedFields = (changes: SubscriberChanges) => CHANGE_FIELDS.filter((field) => changes[field] !== undefined);

/** Applies the given fields: null clears, anything else replaces (`data` as a whole). */
function apply(subscriber: Subscriber, changes: SubscriberChanges, fields: readonly ChangeField[]): void {
  for (const field of fields) {
    const value = changes[field];
    if (value === null) delete subscriber[field];
    else (subscriber as unknown as Record<string, unknown>)[field] = value;
  }
  const cleared = clearedAfter(subscriber.cleared, changes);
  if (cleared.length) subscriber.cleared = cleared;
  else delete subscriber.cleared;
}

/** SubscriberRepository in memory: one subscriber per (environment, subscriberId). */
export class InMemorySubscriberRepository implements SubscriberRepository, EnvironmentRecords {
  private readonly rows = new Map<string, Subscriber>();

  /** The subscribers table write of InMemoryInboxRepository.setPresence (the SQL adapter updates the same table). */
  recordPresence(scope: EnvironmentScope, id: string, online: boolean, at: Date): void {
    const row = this.rows.get(id);
    if (!row || row.environmentId !== scope.environmentId || row.organizationId !== scope.organizationId) return;
    row.isOnline = online;
    row.lastOnlineAt = new Date(at);
  }

  async findBySubscriberId(scope: EnvironmentScope, subscriberId: string): Promise<Subscriber | null> {
    const found = this.find(scope.environmentId, subscriberId);
    return found ? copy(found) : null;
  }

  async findManyBySubscriberIds(scope: EnvironmentScope, subscriberIds: string[]): Promise<Subscriber[]> {
    const wanted = new Set(subscriberIds);
    return this.inEnvironment(scope.environmentId)
      .filter((s) => wanted.has(s.subscriberId))
      .sort(byId)
      .map(copy);
  }

  async listBatch(scope: EnvironmentScope, afterCursor: string | null, limit: number): Promise<{ subscribers: Subscriber[]; next: string | null }> {
    const rows = this.inEnvironment(scope.environmentId)
      .filter((s) => afterCursor === null || s.id > afterCursor)
      .sort(byId)
      .slice(0, limit + 1);
    const batch = rows.slice(0, limit).map(copy);
    return { subscribers: batch, next: rows.length > limit ? batch[batch.length - 1].id : null };
  }

  async listPage(scope: EnvironmentScope, { page, limit }: PageRequest): Promise<{ items: Subscriber[]; hasMore: boolean }> {
    const rows = this.inEnvironment(scope.environmentId)
      .sort(byId)
      .slice(page * limit, page * limit + limit + 1);
    return { items: rows.slice(0, limit).map(copy), hasMore: rows.length > limit };
  }

  async findManyByIds(scope: EnvironmentScope, ids: string[]): Promise<Subscriber[]> {
    const wanted = new Set(ids);
    return this.inEnvironment(scope.environmentId)
      .filter((s) => wanted.has(s.id))
      .sort(byId)
      .map(copy);
  }

  async insert(subscriber: Subscriber): Promise<boolean> {
    const given = stored(subscriber);
    if (this.find(given.environmentId, given.subscriberId)) return false;
    if (this.rows.has(given.id)) throw uniqueViolation('subscribers');
    // Presence (isOnline, lastOnlineAt) is not written by an insert.
    const row = shaped({ ...given, channels: given.channels ?? [] }, REQUIRED, [...CHANGE_FIELDS, 'cleared']);
    if (row.cleared && !row.cleared.length) delete row.cleared;
    this.rows.set(row.id, row);
    return true;
  }

  async upsert(scope: EnvironmentScope, upsert: SubscriberUpsert): Promise<{ subscriber: Subscriber; created: boolean }> {
    const { id, subscriberId, changes, now } = stored(upsert);
    const fields = changedFields(changes);
    const existing = this.find(scope.environmentId, subscriberId);
    if (existing) {
      if (fields.length) {
        apply(existing, changes, fields);
        existing.updatedAt = now;
      }
      return { subscriber: copy(existing), created: false };
    }
    if (this.rows.has(id)) throw uniqueViolation('subscribers');
    const row: Subscriber = {
      id,
      organizationId: scope.organizationId,
      environmentId: scope.environmentId,
      subscriberId,
      channels: [],
      createdAt: now,
      updatedAt: new Date(now),
    };
    apply(row, changes, fields);
    this.rows.set(row.id, row);
    return { subscriber: copy(row), created: true };
  }

  async update(scope: EnvironmentScope, subscriberId: string, changes: SubscriberChanges, now: Date): Promise<Subscriber | null> {
    const existing = this.find(scope.environmentId, subscriberId);
    if (!existing) return null;
    const kept = stored(changes);
    apply(existing, kept, changedFields(kept));
    existing.updatedAt = new Date(now);
    return copy(existing);
  }

  async replaceChannels(
    scope: EnvironmentScope,
    subscriberId: string,
    expected: SubscriberChannel[],
    next: SubscriberChannel[],
    now: Date,
  ): Promise<Subscriber | null> {
    const existing = this.find(scope.environmentId, subscriberId);
    if (!existing || !sameJson(existing.channels, expected)) return null;
    existing.channels = stored(next);
    existing.updatedAt = new Date(now);
    return copy(existing);
  }

  async delete(scope: EnvironmentScope, subscriberId: string): Promise<boolean> {
    const existing = this.find(scope.environmentId, subscriberId);
    return existing ? this.rows.delete(existing.id) : false;
  }

  async search(scope: EnvironmentScope, search: SubscriberSearch): Promise<CursorPage<Subscriber>> {
    const { filter } = search;
    const fullName = (s: Subscriber) => `${s.firstName ?? ''} ${s.lastName ?? ''}`.replace(/^ +| +$/g, '');
    return cursorPage({
      environmentRows: this.inEnvironment(scope.environmentId),
      orderValue: ORDER_VALUES[search.orderBy],
      request: search,
      matches: (s) =>
        (!filter.email || containsIgnoringCase(s.email, filter.email)) &&
        (!filter.phone || containsIgnoringCase(s.phone, filter.phone)) &&
        (!filter.name || containsIgnoringCase(fullName(s), filter.name)) &&
        (!filter.subscriberId || s.subscriberId === filter.subscriberId),
    });
  }

  private find(environmentId: string, subscriberId: string): Subscriber | undefined {
    return this.inEnvironment(environmentId).find((s) => s.subscriberId === subscriberId);
  }

  private inEnvironment(environmentId: string): Subscriber[] {
    return [...this.rows.values()].filter((s) => s.environmentId === environmentId);
  }

  purgeEnvironment(environmentId: string): number {
    return deleteEnvironmentRecords(this.rows, environmentId);
  }
}
