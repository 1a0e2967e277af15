import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, NotFoundError } from '@app/kernel';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '@app/subscribers';
import { NOTIFICATION_REPOSITORY, NotificationRepository } from '../../ports/notification.repository.port';
import { GetNotificationActivity, NotificationActivity } from '../get-notification/get-notification.use-case';

export interface ListNotificationsQuery {
  transactionId?: string;
  /** The caller's subscriberId. */
  subscriberId?: string;
  page: number;
  limit: number;
}

/** The activity feed: notifications newest first, by transaction and/or subscriber, with their jobs. */
@Injectable()
export class ListNotifications {
  constructor(
    @Inject(NOTIFICATION_REPOSITORY) private readonly notifications: NotificationRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    private readonly activity: GetNotificationActivity,
  ) {}

  async execute(scope: EnvironmentScope, query: ListNotificationsQuery): Promise<{ items: NotificationActivity[]; totalCount: number }> {
    let subscriberId: string | undefined;
    if (query.subscriberId !== undefined) {
      const subscriber = await this.subscribers.findBySubscriberId(scope, query.subscriberId);
      if (!subscriber) throw new NotFoundError('subscriber_not_found', `Subscriber '${query.subscriberId}' was not found`);
      subscriberId = subscriber.id;
    }
    const page = await this.notifications.list(scope, { transactionId: query.transactionId, subscriberId, page: query.page, limit: query.limit });
    return { items: await this.activity.describe(scope, page.items), totalCount: page.totalCount };
  }
}
