import { DeliveryEventType, Message, MessageDeliveryUpdate, MessageListQuery, MessageRepository } from '@app/delivery';
import { Channel, Clock, EnvironmentScope, Page, systemClock } from '@app/kernel';
import { DeliveryTables, inScope, toMessage } from './memory-delivery-tables';
import { copy, oldestBefore, orderBy, pageOf, stored } from './memory-records';

const oldestFirst = orderBy<Message>(
  (m) => m.createdAt,
  (m) => m.id,
);

/** MessageRepository in memory, over the store's shared delivery tables. */
export class InMemoryMessageRepository implements MessageRepository {
  constructor(
    private readonly tables: DeliveryTables,
    private readonly clock: Clock = systemClock,
  ) {}

  async insertIfAbsent(message: Message): Promise<{ message: Message; created: boolean }> {
    const given = toMessage(stored(message));
    const existing = this.tables.messages.get(given.id);
    if (existing) return { message: copy(existing), created: false };
    this.tables.messages.set(given.id, given);
    return { message: copy(given), created: true };
  }

  async updateDelivery(id: string, update: MessageDeliveryUpdate): Promise<boolean> {
    const message = this.tables.messages.get(id);
    if (!message) return false;
    const change = stored(update);
    message.status = change.status;
    if (change.status === 'sent') {
      delete message.errorId;
      delete message.errorText;
    } else {
      if (change.errorId != null) message.errorId = change.errorId;
      if (change.errorText != null) message.errorText = change.errorText;
    }
    if (change.identifier != null) message.identifier = change.identifier;
    if (change.deliveredAt != null) message.deliveredAt.push(change.deliveredAt);
    message.updatedAt = change.updatedAt ?? this.clock.now();
    return true;
  }

  async findById(scope: EnvironmentScope, id: string): Promise<Message | null> {
    const message = this.tables.messages.get(id);
    return message && inScope(scope)(message) ? copy(message) : null;
  }

  async findByProviderIdentifier(scope: EnvironmentScope, providerId: string, identifiers: string[]): Promise<Message | null> {
    const wanted = new Set(identifiers);
    const [newest] = [...this.tables.messages.values()]
      .filter((m) => inScope(scope)(m) && m.providerId === providerId && m.identifier !== undefined && wanted.has(m.identifier))
      .sort((a, b) => oldestFirst(b, a));
    return newest ? copy(newest) : null;
  }

  async recordDeliveryState(id: string, change: { state: DeliveryEventType; at: Date }): Promise<boolean> {
    const message = this.tables.messages.get(id);
    if (!message || (message.deliveryStateAt && message.deliveryStateAt.getTime() > change.at.getTime())) return false;
    message.deliveryState = change.state;
    message.deliveryStateAt = new Date(change.at);
    return true;
  }

  async findByJobId(jobId: string): Promise<Message[]> {
    return [...this.tables.messages.values()]
      .filter((m) => m.jobId === jobId)
      .sort(oldestFirst)
      .map(copy);
  }

  async list(scope: EnvironmentScope, query: MessageListQuery): Promise<Page<Message>> {
    const transactions = query.transactionIds && new Set(query.transactionIds);
    const matching = [...this.tables.messages.values()]
      .filter(
        (m) =>
          inScope(scope)(m) &&
          (query.channel === undefined || m.channel === query.channel) &&
          (query.subscriberId === undefined || m.subscriberId === query.subscriberId) &&
          (transactions === undefined || transactions.has(m.transactionId)),
      )
      .sort((a, b) => oldestFirst(b, a));
    return { items: pageOf(matching, query.page, query.limit).map(copy), totalCount: matching.length };
  }

  async deleteByTransaction(scope: EnvironmentScope, transactionId: string, channel?: Channel | string): Promise<Message[]> {
    const doomed = [...this.tables.messages.values()].filter(
      (m) => inScope(scope)(m) && m.transactionId === transactionId && (channel === undefined || channel === null || m.channel === channel),
    );
    for (const message of doomed) this.tables.messages.delete(message.id);
    return doomed.map(copy);
  }

  async deleteById(scope: EnvironmentScope, id: string): Promise<Message | null> {
    const message = this.tables.messages.get(id);
    if (!message || !inScope(scope)(message)) return null;
    this.tables.messages.delete(id);
    return copy(message);
  }

  async markSeen(scope: EnvironmentScope, subscriberId: string, ids: string[], at: Date): Promise<number> {
    const changed = this.subscriberMessages(scope, subscriberId, ids).filter((m) => !m.seen);
    for (const message of changed) {
      message.seen = true;
      message.lastSeenDate = new Date(at);
      message.updatedAt = new Date(at);
    }
    return changed.length;
  }

  async markRead(scope: EnvironmentScope, subscriberId: string, ids: string[], at: Date): Promise<number> {
    const changed = this.subscriberMessages(scope, subscriberId, ids).filter((m) => !m.read);
    for (const message of changed) {
      message.read = true;
      message.lastReadDate = new Date(at);
      message.seen = true;
      message.lastSeenDate ??= new Date(at);
      message.updatedAt = new Date(at);
    }
    return changed.length;
  }

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const doomed = oldestBefore(this.tables.messages.values(), before, limit, (m) => this.tables.notificationFinished(m.notificationId));
    for (const message of doomed) this.tables.messages.delete(message.id);
    return doomed.length;
  }

  private subscriberMessages(scope: EnvironmentScope, subscriberId: string, ids: string[]): Message[] {
    const wanted = new Set(ids);
    return [...this.tables.messages.values()].filter((m) => inScope(scope)(m) && m.subscriberId === subscriberId && wanted.has(m.id));
  }
}
