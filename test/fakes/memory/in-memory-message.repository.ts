import { DeliveryEventType, Message, MessageListQuery, MessageRepository } from '@app/delivery';
import { Channel, EnvironmentScope, Page } from '@app/kernel';
import { DeliveryTables, inScope } from './memory-delivery-tables';
import { copy, oldestBefore, orderBy, pageOf } from './memory-records';

const oldestFirst = orderBy<Message>(
  (m) => m.createdAt,
  (m) => m.id,
);

/** MessageRepository in memory, over the store's shared delivery tables. */
export class InMemoryMessageRepository implements MessageRepository {
  constructor(private readonly tables: DeliveryTables) {}

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

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const doomed = oldestBefore(this.tables.messages.values(), before, limit, (m) => this.tables.notificationFinished(m.notificationId));
    for (const message of doomed) this.tables.messages.delete(message.id);
    return doomed.length;
  }
}
