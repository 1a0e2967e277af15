import { Inject, Injectable } from '@nestjs/common';
import { CallBatcher, EnvironmentScope } from '@app/kernel';
import { InAppDeliveryListener, Message } from '@app/delivery';
import { SEVERITIES } from '../../domain/inbox-filter';
import { subscriberRoom } from '../../domain/subscriber-session';
import { INBOX_REPOSITORY, InboxRepository } from '../../ports/inbox.repository.port';
import { INBOX_SOCKET, InboxSocket } from '../../ports/inbox-socket.port';
import { InboxViews } from '../inbox-views';

/** Socket events Novu's Inbox clients listen to. */
export const INBOX_EVENTS = {
  notificationReceived: 'notification_received',
  unreadCountChanged: 'unread_count_changed',
  unseenCountChanged: 'unseen_count_changed',
} as const;

/**
 * Tells a subscriber's open sockets what changed: a new (or woken) notification, then the unread
 * and unseen counts, with Novu's payloads. It is the delivery context's InAppDeliveryListener.
 */
@Injectable()
export class AnnounceInboxChanges implements InAppDeliveryListener {
  constructor(
    @Inject(INBOX_REPOSITORY) private readonly inbox: InboxRepository,
    @Inject(INBOX_SOCKET) private readonly socket: InboxSocket,
    private readonly views: InboxViews,
  ) {}

  // Concurrent deliveries (a worker runs a hundred steps at once) are announced together: the reads
  // below cost the same for one message or five hundred. A call's messages join as one input.
  private readonly batches = new CallBatcher<Message[], void>(
    async (_environmentId, calls) => {
      await this.announce(calls.flat());
      return calls.map(() => undefined);
    },
    1_000,
    (messages) => messages.length,
  );

  /** New in-app messages (delivered, or back from a snooze): a few reads per batch, then one emit per socket event. */
  async delivered(messages: Message[]): Promise<void> {
    const byEnvironment = new Map<string, Message[]>();
    for (const message of messages) {
      const list = byEnvironment.get(message.environmentId);
      if (list) list.push(message);
      else byEnvironment.set(message.environmentId, [message]);
    }
    await Promise.all([...byEnvironment].map(([environmentId, list]) => this.batches.run(environmentId, list)));
  }

  /** One environment's messages: those of subscribers with a socket open (the others cost nothing). */
  private async announce(messages: Message[]): Promise<void> {
    const scope = { organizationId: messages[0].organizationId, environmentId: messages[0].environmentId };
    const roomOf = (message: Message) => subscriberRoom({ environmentId: scope.environmentId, subscriberInternalId: message.subscriberId });
    const listening = await this.socket.listening([...new Set(messages.map(roomOf))]);
    const batch = messages.filter((message) => listening.has(roomOf(message)));
    if (batch.length === 0) return;
    const items = await this.inbox.findMany(
      scope,
      batch.map((message) => message.id),
    ); // gone meanwhile: left out
    const payloads = await this.views.socketMessagesOf(scope, items);
    await Promise.all(
      items.map((item, index) =>
        this.socket.emit(
          subscriberRoom({ environmentId: scope.environmentId, subscriberInternalId: item.message.subscriberId }),
          INBOX_EVENTS.notificationReceived,
          {
            message: payloads[index],
          },
        ),
      ),
    );
    await this.sendCounts(scope, [...new Set(items.map((item) => item.message.subscriberId))]);
  }

  /** The subscriber's unread counts (total and per severity) and unseen count. */
  countsChanged(scope: EnvironmentScope, subscriberInternalId: string): Promise<void> {
    return this.announceCounts(scope, [subscriberInternalId]);
  }

  private async announceCounts(scope: EnvironmentScope, candidates: string[]): Promise<void> {
    const roomOf = (subscriberInternalId: string) => subscriberRoom({ environmentId: scope.environmentId, subscriberInternalId });
    const listening = await this.socket.listening(candidates.map(roomOf));
    const subscriberIds = candidates.filter((id) => listening.has(roomOf(id)));
    if (subscriberIds.length) await this.sendCounts(scope, subscriberIds);
  }

  private async sendCounts(scope: EnvironmentScope, subscriberIds: string[]): Promise<void> {
    const counts = await this.inbox.badgeCounts(scope, subscriberIds);
    await Promise.all(
      subscriberIds.map(async (subscriberInternalId) => {
        const room = subscriberRoom({ environmentId: scope.environmentId, subscriberInternalId });
        const badge = counts.get(subscriberInternalId);
        const severity = Object.fromEntries(SEVERITIES.map((name) => [name, badge?.unread[name] ?? 0]));
        const total = Object.values(severity).reduce((sum, count) => sum + count, 0);
        await this.socket.emit(room, INBOX_EVENTS.unreadCountChanged, { unreadCount: total, counts: { total, severity } });
        await this.socket.emit(room, INBOX_EVENTS.unseenCountChanged, { unseenCount: badge?.unseen ?? 0 });
      }),
    );
  }
}
