import { Notification, NotificationListQuery, NotificationRepository } from '@app/delivery';
import { EnvironmentScope, Page } from '@app/kernel';
import { mongo } from 'mongoose';
import { allOf } from '../mongo-cursor-page';
import { Doc } from '../mongo-documents';
import { deleteOldest, ofFinishedNotifications } from '../mongo-retention';
import { COLLECTIONS, MongoStore } from '../mongo-store';
import { notificationDocuments } from './delivery-documents';

/** The filter of a notification list. */
export function notificationListFilter(scope: EnvironmentScope, query: NotificationListQuery): mongo.Filter<Doc> {
  return allOf(
    { environmentId: scope.environmentId, organizationId: scope.organizationId },
    query.transactionId !== undefined ? { transactionId: query.transactionId } : {},
    query.subscriberId !== undefined ? { subscriberId: query.subscriberId } : {},
    query.subscriberIds ? { subscriberId: { $in: query.subscriberIds } } : {},
    query.workflowIds ? { workflowId: { $in: query.workflowIds } } : {},
    // channels is an array: $in matches a notification holding any of them
    query.channels ? { channels: { $in: query.channels } } : {},
  );
}

/** NotificationRepository on MongoDB (new notifications are written with their chains: MongoChainRepository). */
export class MongoNotificationRepository implements NotificationRepository {
  constructor(private readonly store: MongoStore) {}

  private get notifications() {
    return this.store.collection(COLLECTIONS.notifications);
  }

  async findById(scope: EnvironmentScope, id: string): Promise<Notification | null> {
    const doc = await this.notifications.findOne({ _id: id, environmentId: scope.environmentId, organizationId: scope.organizationId });
    return doc ? notificationDocuments.toDomain(doc) : null;
  }

  async list(scope: EnvironmentScope, query: NotificationListQuery): Promise<Page<Notification>> {
    const filter = notificationListFilter(scope, query);
    const [docs, totalCount] = await Promise.all([
      this.notifications.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: query.page * query.limit, limit: query.limit }).toArray(),
      this.notifications.countDocuments(filter),
    ]);
    return { items: docs.map((doc) => notificationDocuments.toDomain(doc)), totalCount };
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.notifications, before, limit, {}, ofFinishedNotifications(this.store, '_id'));
  }
}
