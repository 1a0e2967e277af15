import { Module } from '@nestjs/common';
import { SubscribersModule } from '@app/subscribers';
import { AnnounceInboxChanges } from './application/announce-inbox-changes/announce-inbox-changes.use-case';
import { AuthenticateSubscriber } from './application/authenticate-subscriber/authenticate-subscriber.use-case';
import { ChangeInboxNotification } from './application/change-inbox-notification/change-inbox-notification.use-case';
import { ChangeInboxNotifications } from './application/change-inbox-notifications/change-inbox-notifications.use-case';
import { CountInboxNotifications } from './application/count-inbox-notifications/count-inbox-notifications.use-case';
import { DeleteInboxNotification } from './application/delete-inbox-notification/delete-inbox-notification.use-case';
import { InboxViews } from './application/inbox-views';
import { MarkMessagesAs } from './application/mark-messages-as/mark-messages-as.use-case';
import { DeleteMessage } from './application/delete-message/delete-message.use-case';
import { ListInboxNotifications } from './application/list-inbox-notifications/list-inbox-notifications.use-case';
import { ResolveSubscriberSession } from './application/resolve-subscriber-session/resolve-subscriber-session.use-case';
import { ListSubscriberFeed } from './application/list-subscriber-feed/list-subscriber-feed.use-case';
import { StartInboxSession } from './application/start-inbox-session/start-inbox-session.use-case';
import { TrackSubscriberPresence } from './application/track-subscriber-presence/track-subscriber-presence.use-case';
import { WakeSnoozedNotifications } from './application/wake-snoozed-notifications/wake-snoozed-notifications.use-case';

const useCases = [
  InboxViews,
  StartInboxSession,
  AuthenticateSubscriber,
  ListInboxNotifications,
  CountInboxNotifications,
  ChangeInboxNotification,
  ChangeInboxNotifications,
  DeleteInboxNotification,
  AnnounceInboxChanges,
  WakeSnoozedNotifications,
  TrackSubscriberPresence,
  MarkMessagesAs,
  DeleteMessage,
  ResolveSubscriberSession,
  ListSubscriberFeed,
];

/**
 * The Inbox context's use cases. Bound elsewhere: INBOX_REPOSITORY (store module), SUBSCRIBER_TOKENS,
 * API_KEY_SEALER and INBOX_SOCKET (libs/bootstrap, by process kind).
 */
@Module({ imports: [SubscribersModule], providers: useCases, exports: useCases })
export class InboxModule {}
