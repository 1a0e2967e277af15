import { Inject, Injectable } from '@nestjs/common';
import { InboxFilter } from '../../domain/inbox-filter';
import { SubscriberSession } from '../../domain/subscriber-session';
import { INBOX_REPOSITORY, InboxRepository } from '../../ports/inbox.repository.port';

/** One count per filter, in order (the bell sums several: one per severity). */
@Injectable()
export class CountInboxNotifications {
  constructor(@Inject(INBOX_REPOSITORY) private readonly inbox: InboxRepository) {}

  execute(session: SubscriberSession, filters: InboxFilter[]): Promise<number[]> {
    return Promise.all(filters.map((filter) => this.inbox.count(session, session.subscriberInternalId, filter)));
  }
}
