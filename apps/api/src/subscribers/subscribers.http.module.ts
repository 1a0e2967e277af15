import { Module } from '@nestjs/common';
import { SubscribersModule } from '@app/subscribers';
import { SubscriberCredentialsController } from './subscriber-credentials.controller';
import { SubscribersController } from './subscribers.controller';
import { PreferencesController } from './preferences/preferences.controller';

/** HTTP adapter of the subscribers context: controllers and their DTOs. */
@Module({ imports: [SubscribersModule], controllers: [SubscribersController, SubscriberCredentialsController, PreferencesController] })
export class SubscribersHttpModule {}
