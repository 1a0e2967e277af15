import { Notification, NotificationListQuery, NotificationRepository } from '@app/delivery';
import { EnvironmentScope, Page } from '@app/kernel';
import { DeliveryTables, inScope } from './memory-delivery-tables';
import { copy, oldestBefore, orderBy, pageOf } from './memory-records';

const oldestFirst = orderBy<Notification>(
  (n) => n.createdAt,
  (n) => n.id,
);

/** NotificationRepository in memory, writing jobs, messages and details into the store's shared delivery tables. */
export class InMemoryNotificationRepository implements NotificationRepository {
  constructor(private readonly tables: DeliveryTables) {}

  async findById(scope: EnvironmentScope, id: string): Promise<Notification | null> {
    const notification = this.tables.notifications.get(id);
    return notification && inScope(scope)(notification) ? copy(notification) : null;
  }

  async list(scope: EnvironmentScope, query: NotificationListQuery): Promise<Page<Notification>> {
    const matching = [...this.tables.notifications.values()]
      .filter(
        (n) =>
          inScope(scope)(n) &&
          (query.transactionId === undefined || n.transactionId === query.transactionId) &&
          (query.subscriberId === undefined || n.subscriberId === query.subscriberId) &&
          (query.subscriberIds === undefined || query.subscriberIds.includes(n.subscriberId)) &&
          (query.workflowIds === undefined || query.workflowIds.includes(n.workflowId)) &&
          (query.channels === undefined || n.channels.some((channel) => query.channels!.includes(channel))),
      )
      .sort((a, b) => oldestFirst(b, a));
    return { items: pageOf(matching, query.page, query.limit).map(copy), totalCount: matching.length };
  }

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const doomed = oldestBefore(this.tables.notifications.values(), before, limit, (n) => this.tables.notificationFinished(n.id));
    for (const n of doomed) this.tables.notifications.delete(n.id);
    return doomed.length;
  }
}
