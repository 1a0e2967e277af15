import { Module } from '@nestjs/common';
import { SubscribersModule } from '@app/subscribers';
import { TopicsController } from './topics.controller';
import { TopicsV1Controller } from './topics-v1.controller';

/** HTTP adapter of the topics context: /v2/topics and Novu's v1 topic routes, with their DTOs. */
@Module({ imports: [SubscribersModule], controllers: [TopicsController, TopicsV1Controller] })
export class TopicsHttpModule {}
