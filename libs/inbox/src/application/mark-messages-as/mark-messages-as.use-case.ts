import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, NotFoundError, OUTBOUND_EVENTS, OutboundEvents, noOutboundEvents } from '@app/kernel';
import { MESSAGE_REPOSITORY, Message, MessageRepository } from '@app/delivery';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '@app/subscribers';
import { InboxChange, inboxChangeEvents } from '../../domain/inbox-change';
import { INBOX_REPOSITORY, InboxRepository } from '../../ports/inbox.repository.port';
import { AnnounceInboxChanges } from '../announce-inbox-changes/announce-inbox-changes.use-case';

export type MarkAs = 'read' | 'unread' | 'seen' | 'unseen';

const CHANGES: Record<MarkAs, (at: Date) => InboxChange> = {
  read: (at) => ({ read: true, seen: true, at }),
  unread: (at) => ({ read: false, at }),
  seen: (at) => ({ seen: true, at }),
  unseen: (at) => ({ seen: false, at }),
};

/**
 * Server side (API key): marks a subscriber's in-app messages, as Novu's mark-as; the subscriber's
 * sockets hear the new counts, and each message whose state changed is an outbound event.
 */
@Injectable()
export class MarkMessagesAs {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(INBOX_REPOSITORY) private readonly inbox: InboxRepository,
    @Inject(MESSAGE_REPOSITORY) private readonly messages: MessageRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly announce: AnnounceInboxChanges,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  async execute(scope: EnvironmentScope, subscriberId: string, messageIds: string[], markAs: MarkAs): Promise<Message[]> {
    const subscriber = await this.subscribers.findBySubscriberId(scope, subscriberId);
    if (!subscriber) throw new NotFoundError('subscriber_not_found', `Subscriber '${subscriberId}' was not found`);
    const change = CHANGES[markAs](this.clock.now());
    const changed = [
      ...(await this.inbox.changeMany(scope, subscriber.id, { ids: messageIds }, change)),
      ...(await this.inbox.changeMany(scope, subscriber.id, { ids: messageIds, snoozed: true }, change)),
    ];
    await this.events.publish(scope, inboxChangeEvents(changed, subscriber.subscriberId));
    await this.announce.countsChanged(scope, subscriber.id);
    const found = await Promise.all(messageIds.map((id) => this.messages.findById(scope, id)));
    return found.filter((message): message is Message => message !== null && message.subscriberId === subscriber.id);
  }
}
