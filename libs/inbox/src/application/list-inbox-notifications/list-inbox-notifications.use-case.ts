import { Inject, Injectable } from '@nestjs/common';
import { InboxFilter } from '../../domain/inbox-filter';
import { InboxNotificationView } from '../../domain/inbox-notification';
import { SubscriberSession } from '../../domain/subscriber-session';
import { INBOX_REPOSITORY, InboxPageRequest, InboxRepository } from '../../ports/inbox.repository.port';
import { InboxViews } from '../inbox-views';

@Injectable()
export class ListInboxNotifications {
  constructor(
    @Inject(INBOX_REPOSITORY) private readonly inbox: InboxRepository,
    private readonly views: InboxViews,
  ) {}

  async execute(session: SubscriberSession, filter: InboxFilter, page: InboxPageRequest): Promise<{ data: InboxNotificationView[]; hasMore: boolean }> {
    const { items, hasMore } = await this.inbox.list(session, session.subscriberInternalId, filter, page);
    return { data: await this.views.notifications(session, session.subscriberInternalId, items), hasMore };
  }
}
