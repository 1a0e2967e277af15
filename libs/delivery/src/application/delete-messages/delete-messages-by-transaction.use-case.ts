import { Inject, Injectable, Optional } from '@nestjs/common';
import { EnvironmentScope, NotFoundError, OUTBOUND_EVENTS, OutboundEvents, noOutboundEvents } from '@app/kernel';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '@app/subscribers';
import { MESSAGE_REPOSITORY, MessageRepository } from '../../ports/message.repository.port';
import { messageEvents } from '../message-events';

/** DELETE /v1/messages/transaction/{transactionId}?channel=: 404 when nothing matches; message.deleted for each message deleted. */
@Injectable()
export class DeleteMessagesByTransaction {
  constructor(
    @Inject(MESSAGE_REPOSITORY) private readonly messages: MessageRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  async execute(scope: EnvironmentScope, transactionId: string, channel?: string): Promise<void> {
    const deleted = await this.messages.deleteByTransaction(scope, transactionId, channel);
    if (deleted.length === 0) throw new NotFoundError('messages_not_found', 'Invalid transactionId or channel');
    await this.events.publish(
      scope,
      messageEvents(
        this.subscribers,
        scope,
        deleted.map((message) => ({ type: 'message.deleted', key: message.id, message })),
      ),
    );
  }
}
