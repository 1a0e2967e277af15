import { Module } from '@nestjs/common';
import { InboxModule } from '@app/inbox';
import { SubscribersModule } from '@app/subscribers';
import { SubscriberCredentialsController } from './subscriber-credentials.controller';
import { SubscribersController } from './subscribers.controller';
import { SubscribersV1Controller } from './subscribers-v1.controller';
import { SubscriberFeedController } from './subscriber-feed.controller';
import { SubscriberNotificationsController } from './subscriber-notifications.controller';
import { PreferencesController } from './preferences/preferences.controller';
import { PreferencesV1Controller } from './preferences/preferences-v1.controller';

/** HTTP adapter of the subscribers context: the v2 controllers and Novu's v1 routes beside them, with their DTOs. */
@Module({
  imports: [SubscribersModule, InboxModule],
  controllers: [
    SubscribersController,
    SubscriberCredentialsController,
    PreferencesController,
    SubscribersV1Controller,
    PreferencesV1Controller,
    SubscriberFeedController,
    SubscriberNotificationsController,
  ],
})
export class SubscribersHttpModule {}
