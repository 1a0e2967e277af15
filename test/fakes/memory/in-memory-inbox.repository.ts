import { Message } from '@app/delivery';
import { BadgeCounts, InboxChange, InboxChanged, InboxFilter, InboxItem, InboxPageRequest, InboxRepository, InboxState, sortedContextKeys } from '@app/inbox';
import { EnvironmentScope } from '@app/kernel';
import { DeliveryTables, inScope } from './memory-delivery-tables';
import { InMemorySubscriberRepository } from './in-memory-subscriber.repository';
import { canonicalJson, copy, sameJson, stored } from './memory-records';

const newestFirst = (a: Message, b: Message) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** InboxRepository in memory, over the store's shared delivery tables (and its subscribers, for presence). */
export class InMemoryInboxRepository implements InboxRepository {
  constructor(
    private readonly tables: DeliveryTables,
    private readonly subscribers: InMemorySubscriberRepository,
  ) {}

  async list(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter, page: InboxPageRequest): Promise<{ items: InboxItem[]; hasMore: boolean }> {
    let matching = this.matching(scope, subscriberId, filter).sort(newestFirst);
    if (page.after !== undefined) {
      const cursor = this.feed(scope, subscriberId).find((m) => m.id === page.after);
      matching = cursor ? matching.filter((m) => newestFirst(cursor, m) < 0) : [];
    }
    const offset = page.offset ?? 0;
    const slice = matching.slice(offset, offset + page.limit + 1);
    return { items: slice.slice(0, page.limit).map((m) => this.item(m)), hasMore: slice.length > page.limit };
  }

  async count(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter): Promise<number> {
    return this.matching(scope, subscriberId, filter).length;
  }

  async find(scope: EnvironmentScope, subscriberId: string, id: string): Promise<InboxItem | null> {
    const message = this.feed(scope, subscriberId).find((m) => m.id === id);
    return message ? this.item(message) : null;
  }

  async findMany(scope: EnvironmentScope, ids: string[]): Promise<InboxItem[]> {
    const wanted = new Set(ids);
    return [...this.tables.messages.values()].filter((m) => inScope(scope)(m) && m.channel === 'in_app' && wanted.has(m.id)).map((m) => this.item(m));
  }

  async badgeCounts(scope: EnvironmentScope, subscriberIds: string[]): Promise<Map<string, BadgeCounts>> {
    const counts = new Map<string, BadgeCounts>();
    for (const subscriberId of subscriberIds) {
      for (const message of this.matching(scope, subscriberId, { archived: false })) {
        const entry = counts.get(subscriberId) ?? { unread: {}, unseen: 0 };
        if (!message.read) entry.unread[this.severityOf(message)] = (entry.unread[this.severityOf(message)] ?? 0) + 1;
        if (!message.seen) entry.unseen += 1;
        if (!message.read || !message.seen) counts.set(subscriberId, entry);
      }
    }
    return counts;
  }

  async change(scope: EnvironmentScope, subscriberId: string, id: string, change: InboxChange): Promise<(InboxItem & Pick<InboxChanged, 'before'>) | null> {
    const message = this.feed(scope, subscriberId).find((m) => m.id === id);
    if (!message) return null;
    const before = stateOf(message);
    apply(message, stored(change));
    return { ...this.item(message), before };
  }

  async changeMany(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter, change: InboxChange): Promise<InboxChanged[]> {
    return this.matching(scope, subscriberId, filter).map((message) => {
      const before = stateOf(message);
      apply(message, stored(change));
      return { message: copy(message), before };
    });
  }

  async delete(scope: EnvironmentScope, subscriberId: string, id: string): Promise<Message | null> {
    const message = this.feed(scope, subscriberId).find((m) => m.id === id);
    if (!message) return null;
    this.tables.messages.delete(message.id);
    return copy(message);
  }

  async deleteMany(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter): Promise<Message[]> {
    const matching = this.matching(scope, subscriberId, filter);
    for (const message of matching) this.tables.messages.delete(message.id);
    return matching.map(copy);
  }

  async wakeSnoozed(now: Date, limit: number): Promise<Message[]> {
    const due = [...this.tables.messages.values()]
      .filter((m) => m.snoozedUntil && m.snoozedUntil.getTime() <= now.getTime())
      .sort((a, b) => a.snoozedUntil!.getTime() - b.snoozedUntil!.getTime())
      .slice(0, limit);
    for (const message of due) {
      delete message.snoozedUntil;
      message.updatedAt = new Date(now);
      message.deliveredAt.push(new Date(now));
    }
    return due.map(copy);
  }

  async setPresence(scope: EnvironmentScope, subscriberId: string, online: boolean, at: Date): Promise<void> {
    this.subscribers.recordPresence(scope, subscriberId, online, at);
  }

  private feed(scope: EnvironmentScope, subscriberId: string): Message[] {
    return [...this.tables.messages.values()].filter((m) => inScope(scope)(m) && m.subscriberId === subscriberId && m.channel === 'in_app');
  }

  private matching(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter): Message[] {
    const ids = filter.ids && new Set(filter.ids);
    return this.feed(scope, subscriberId).filter(
      (m) =>
        (!filter.tags?.length || (m.tags ?? []).some((tag) => filter.tags!.includes(tag))) &&
        (filter.read === undefined || m.read === filter.read) &&
        (filter.seen === undefined || m.seen === filter.seen) &&
        (filter.archived === undefined || m.archived === filter.archived) &&
        Boolean(m.snoozedUntil) === Boolean(filter.snoozed) &&
        (!filter.data || Object.entries(filter.data).every(([key, value]) => canonicalJson(m.payload?.[key]) === canonicalJson(value))) &&
        (!filter.severity?.length || filter.severity.includes(this.severityOf(m))) &&
        (!filter.createdGte || m.createdAt >= filter.createdGte) &&
        (!filter.createdLte || m.createdAt <= filter.createdLte) &&
        (!ids || ids.has(m.id)) &&
        (!filter.contextKeys?.length || sameJson(this.tables.notifications.get(m.notificationId)?.contextKeys ?? [], sortedContextKeys(filter.contextKeys))),
    );
  }

  private severityOf(message: Message): string {
    return this.tables.notifications.get(message.notificationId)?.severity || 'none';
  }

  private item(message: Message): InboxItem {
    return { message: copy(message), severity: this.severityOf(message) };
  }
}

function stateOf(message: Message): InboxState {
  return { read: message.read, seen: message.seen, archived: message.archived, snoozedUntil: message.snoozedUntil && new Date(message.snoozedUntil) };
}

function apply(message: Message, change: InboxChange): void {
  const at = new Date(change.at);
  message.updatedAt = at;
  if (change.read === true) {
    message.read = true;
    message.lastReadDate = at;
  }
  if (change.read === false) message.read = false;
  if (change.seen === true) {
    message.seen = true;
    message.lastSeenDate = at;
    message.firstSeenDate ??= at;
  }
  if (change.seen === false) message.seen = false;
  if (change.archived === true) {
    message.archived = true;
    message.archivedAt = at;
  }
  if (change.archived === false) {
    message.archived = false;
    delete message.archivedAt;
  }
  if (change.snoozedUntil === null) delete message.snoozedUntil;
  else if (change.snoozedUntil !== undefined) message.snoozedUntil = new Date(change.snoozedUntil);
  if (change.cta !== undefined) message.cta = change.cta;
}
