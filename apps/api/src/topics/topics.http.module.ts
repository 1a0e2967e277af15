import { Module } from '@nestjs/common';
import { SubscribersModule } from '@app/subscribers';
import { TopicsController } from './topics.controller';

/** HTTP adapter of the topics context: controllers and their DTOs. */
@Module({ imports: [SubscribersModule], controllers: [TopicsController] })
export class TopicsHttpModule {}
