import { Module } from '@nestjs/common';
import { InboxModule } from '@app/inbox';
import { SubscribersModule } from '@app/subscribers';
import { InboxController } from './inbox.controller';
import { InboxGateway } from './inbox.gateway';
import { InboxPreferencesController } from './inbox-preferences.controller';
import { SubscriberTokenGuard } from './subscriber-token.guard';

/** HTTP and socket adapter of the Inbox context: /v1/inbox/* (subscriber tokens) and socket.io on the API port. */
@Module({
  imports: [InboxModule, SubscribersModule],
  controllers: [InboxController, InboxPreferencesController],
  providers: [SubscriberTokenGuard, InboxGateway],
})
export class InboxHttpModule {}
