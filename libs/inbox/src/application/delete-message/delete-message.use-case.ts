import { Inject, Injectable, Optional } from '@nestjs/common';
import { EnvironmentScope, NotFoundError, OUTBOUND_EVENTS, OutboundEvents, noOutboundEvents } from '@app/kernel';
import { MESSAGE_REPOSITORY, MessageRepository, messageEvents } from '@app/delivery';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '@app/subscribers';
import { AnnounceInboxChanges } from '../announce-inbox-changes/announce-inbox-changes.use-case';

/** DELETE /v1/messages/{id}: any channel; an in-app one leaves the subscriber's inbox, whose counts are announced; message.deleted. */
@Injectable()
export class DeleteMessage {
  constructor(
    @Inject(MESSAGE_REPOSITORY) private readonly messages: MessageRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    private readonly announce: AnnounceInboxChanges,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  async execute(scope: EnvironmentScope, id: string): Promise<void> {
    const message = await this.messages.deleteById(scope, id);
    if (!message) throw new NotFoundError('message_not_found', `Message with id ${id} not found`);
    await this.events.publish(scope, messageEvents(this.subscribers, scope, [{ type: 'message.deleted', key: message.id, message }]));
    if (message.channel === 'in_app') await this.announce.countsChanged(scope, message.subscriberId);
  }
}
