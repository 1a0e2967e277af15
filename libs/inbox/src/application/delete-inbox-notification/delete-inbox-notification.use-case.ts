import { Inject, Injectable } from '@nestjs/common';
import { InboxNotificationNotFoundError } from '../../domain/errors';
import { SubscriberSession } from '../../domain/subscriber-session';
import { INBOX_REPOSITORY, InboxRepository } from '../../ports/inbox.repository.port';
import { AnnounceInboxChanges } from '../announce-inbox-changes/announce-inbox-changes.use-case';

@Injectable()
export class DeleteInboxNotification {
  constructor(
    @Inject(INBOX_REPOSITORY) private readonly inbox: InboxRepository,
    private readonly announce: AnnounceInboxChanges,
  ) {}

  async execute(session: SubscriberSession, id: string): Promise<void> {
    if (!(await this.inbox.delete(session, session.subscriberInternalId, id))) throw new InboxNotificationNotFoundError(id);
    await this.announce.countsChanged(session, session.subscriberInternalId);
  }
}
