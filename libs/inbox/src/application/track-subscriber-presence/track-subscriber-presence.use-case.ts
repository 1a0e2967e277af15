import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '@app/kernel';
import { SubscriberSession } from '../../domain/subscriber-session';
import { INBOX_REPOSITORY, InboxRepository } from '../../ports/inbox.repository.port';

/** isOnline / lastOnlineAt of a subscriber, as its sockets come and go. */
@Injectable()
export class TrackSubscriberPresence {
  constructor(
    @Inject(INBOX_REPOSITORY) private readonly inbox: InboxRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute(session: SubscriberSession, online: boolean): Promise<void> {
    return this.inbox.setPresence(session, session.subscriberInternalId, online, this.clock.now());
  }
}
