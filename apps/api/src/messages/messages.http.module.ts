import { Module } from '@nestjs/common';
import { DeliveryModule } from '@app/delivery';
import { InboxModule } from '@app/inbox';
import { MessagesController } from './messages.controller';

/** HTTP adapter of the delivery context's messages: GET /v1/messages, DELETE /v1/messages/transaction/{transactionId}, POST /v1/messages/mark-as, DELETE /v1/messages/{messageId}. */
@Module({ imports: [DeliveryModule, InboxModule], controllers: [MessagesController] })
export class MessagesHttpModule {}
