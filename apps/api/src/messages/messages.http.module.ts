import { Module } from '@nestjs/common';
import { DeliveryModule } from '@app/delivery';
import { MessagesController } from './messages.controller';

/** HTTP adapter of the delivery context's messages: GET /v1/messages, DELETE /v1/messages/transaction/{transactionId}. */
@Module({ imports: [DeliveryModule], controllers: [MessagesController] })
export class MessagesHttpModule {}
