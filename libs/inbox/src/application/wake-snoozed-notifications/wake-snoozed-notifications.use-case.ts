import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, Clock, OUTBOUND_EVENTS, OutboundEvents, noOutboundEvents } from '@app/kernel';
import { Message, messageEvents } from '@app/delivery';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '@app/subscribers';
import { INBOX_REPOSITORY, InboxRepository } from '../../ports/inbox.repository.port';
import { AnnounceInboxChanges } from '../announce-inbox-changes/announce-inbox-changes.use-case';

const BATCH = 500;

/**
 * Snoozed notifications whose time came back into the feed, each announced once as a new
 * notification and published once as message.unsnoozed (the store hands each woken message to one
 * caller, so several workers may sweep).
 */
@Injectable()
export class WakeSnoozedNotifications {
  constructor(
    @Inject(INBOX_REPOSITORY) private readonly inbox: InboxRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly announce: AnnounceInboxChanges,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  async execute(): Promise<number> {
    let total = 0;
    for (;;) {
      const woken = await this.inbox.wakeSnoozed(this.clock.now(), BATCH);
      total += woken.length;
      if (woken.length) await Promise.all([this.announce.delivered(woken), this.publish(woken)]);
      if (woken.length < BATCH) return total;
    }
  }

  private async publish(woken: Message[]): Promise<void> {
    for (const environmentId of new Set(woken.map((message) => message.environmentId))) {
      const messages = woken.filter((message) => message.environmentId === environmentId);
      const scope = { organizationId: messages[0].organizationId, environmentId: messages[0].environmentId };
      const events = messages.map((message) => ({ type: 'message.unsnoozed' as const, key: `${message.id}:${message.updatedAt.toISOString()}`, message }));
      await this.events.publish(scope, messageEvents(this.subscribers, scope, events));
    }
  }
}
