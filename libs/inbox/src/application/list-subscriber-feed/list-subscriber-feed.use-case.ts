import { Inject, Injectable } from '@nestjs/common';
import { Message } from '@app/delivery';
import { PageRequest } from '@app/kernel';
import { InboxFilter } from '../../domain/inbox-filter';
import { SubscriberSession } from '../../domain/subscriber-session';
import { INBOX_REPOSITORY, InboxRepository } from '../../ports/inbox.repository.port';

/**
 * Novu's server-side feed (GET /v1/subscribers/{id}/notifications/feed): the subscriber's in-app
 * messages as the Inbox lists them (newest first, snoozed ones out), page by page, as stored messages.
 */
@Injectable()
export class ListSubscriberFeed {
  constructor(@Inject(INBOX_REPOSITORY) private readonly inbox: InboxRepository) {}

  async execute(
    session: SubscriberSession,
    filter: Pick<InboxFilter, 'read' | 'seen' | 'data'>,
    { page, limit }: PageRequest,
  ): Promise<{ messages: Message[]; hasMore: boolean }> {
    const { items, hasMore } = await this.inbox.list(session, session.subscriberInternalId, filter, { limit, offset: page * limit });
    return { messages: items.map((item) => item.message), hasMore };
  }
}
