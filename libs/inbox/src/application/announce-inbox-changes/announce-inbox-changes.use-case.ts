import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { InAppDeliveryListener, Message } from '@app/delivery';
import { SEVERITIES, UNREAD_FILTER, UNSEEN_FILTER } from '../../domain/inbox-filter';
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

  /** New in-app messages (delivered, or back from a snooze). */
  async delivered(messages: Message[]): Promise<void> {
    await Promise.all(
      messages.map(async (message) => {
        const scope = { organizationId: message.organizationId, environmentId: message.environmentId };
        const item = await this.inbox.find(scope, message.subscriberId, message.id);
        if (!item) return; // gone meanwhile
        const [payload] = await this.views.socketMessages(scope, message.subscriberId, [item]);
        const room = subscriberRoom({ environmentId: message.environmentId, subscriberInternalId: message.subscriberId });
        await this.socket.emit(room, INBOX_EVENTS.notificationReceived, { message: payload });
        await this.countsChanged(scope, message.subscriberId);
      }),
    );
  }

  /** The subscriber's unread counts (total and per severity) and unseen count. */
  async countsChanged(scope: EnvironmentScope, subscriberInternalId: string): Promise<void> {
    const room = subscriberRoom({ environmentId: scope.environmentId, subscriberInternalId });
    const [unseenCount, ...bySeverity] = await Promise.all([
      this.inbox.count(scope, subscriberInternalId, UNSEEN_FILTER),
      ...SEVERITIES.map((severity) => this.inbox.count(scope, subscriberInternalId, { ...UNREAD_FILTER, severity: [severity] })),
    ]);
    const severity = Object.fromEntries(SEVERITIES.map((name, index) => [name, bySeverity[index]]));
    const total = bySeverity.reduce((sum, count) => sum + count, 0);
    await this.socket.emit(room, INBOX_EVENTS.unreadCountChanged, { unreadCount: total, counts: { total, severity } });
    await this.socket.emit(room, INBOX_EVENTS.unseenCountChanged, { unseenCount });
  }
}
