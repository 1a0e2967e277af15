import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, NotFoundError } from '@app/kernel';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '@app/subscribers';
import { NOTIFICATION_REPOSITORY, NotificationRepository } from '../../ports/notification.repository.port';
import { GetNotificationActivity, NotificationActivity } from '../get-notification/get-notification.use-case';

export interface ListNotificationsQuery {
  transactionId?: string;
  /** The caller's subscriberId. */
  subscriberId?: string;
  /** Workflows' `_id`s. */
  workflowIds?: string[];
  channels?: string[];
  /** Subscribers with any of these emails, or any of `subscriberIds` (the caller's ids). */
  emails?: string[];
  subscriberIds?: string[];
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
    let subscriberIds: string[] | undefined;
    if (query.emails?.length || query.subscriberIds?.length) {
      subscriberIds = await this.subscribersMatching(scope, query.emails ?? [], query.subscriberIds ?? []);
      if (!subscriberIds.length) return { items: [], totalCount: 0 };
    }
    const page = await this.notifications.list(scope, {
      transactionId: query.transactionId,
      subscriberId,
      subscriberIds,
      workflowIds: query.workflowIds?.length ? query.workflowIds : undefined,
      channels: query.channels?.length ? query.channels : undefined,
      page: query.page,
      limit: query.limit,
    });
    return { items: await this.activity.describe(scope, page.items), totalCount: page.totalCount };
  }

  /** Internal ids of the subscribers with one of the emails (compared ignoring case) or one of the subscriberIds. */
  private async subscribersMatching(scope: EnvironmentScope, emails: string[], subscriberIds: string[]): Promise<string[]> {
    const ids = new Set((await this.subscribers.findManyBySubscriberIds(scope, subscriberIds)).map((s) => s.id));
    for (const email of new Set(emails.map((e) => e.toLowerCase()))) {
      let after: string | undefined;
      do {
        const page = await this.subscribers.search(scope, {
          filter: { email },
          limit: 100,
          orderBy: '_id',
          orderDirection: 'ASC',
          includeCursor: false,
          ...(after ? { after } : {}),
        });
        for (const subscriber of page.items) if (subscriber.email?.toLowerCase() === email) ids.add(subscriber.id);
        after = page.next ?? undefined;
      } while (after);
    }
    return [...ids];
  }
}
