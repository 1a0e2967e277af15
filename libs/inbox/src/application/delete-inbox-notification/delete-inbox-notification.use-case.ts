import { Inject, Injectable, Optional } from '@nestjs/common';
import { OUTBOUND_EVENTS, OutboundEvents, noOutboundEvents } from '@app/kernel';
import { InboxNotificationNotFoundError } from '../../domain/errors';
import { inboxDeleteEvents } from '../../domain/inbox-change';
import { SubscriberSession } from '../../domain/subscriber-session';
import { INBOX_REPOSITORY, InboxRepository } from '../../ports/inbox.repository.port';
import { AnnounceInboxChanges } from '../announce-inbox-changes/announce-inbox-changes.use-case';

@Injectable()
export class DeleteInboxNotification {
  constructor(
    @Inject(INBOX_REPOSITORY) private readonly inbox: InboxRepository,
    private readonly announce: AnnounceInboxChanges,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  async execute(session: SubscriberSession, id: string): Promise<void> {
    const deleted = await this.inbox.delete(session, session.subscriberInternalId, id);
    if (!deleted) throw new InboxNotificationNotFoundError(id);
    await this.events.publish(session, inboxDeleteEvents([deleted], session.subscriberId));
    await this.announce.countsChanged(session, session.subscriberInternalId);
  }
}
