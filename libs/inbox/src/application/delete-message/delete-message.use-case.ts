import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, NotFoundError } from '@app/kernel';
import { MESSAGE_REPOSITORY, MessageRepository } from '@app/delivery';
import { AnnounceInboxChanges } from '../announce-inbox-changes/announce-inbox-changes.use-case';

/** DELETE /v1/messages/{id}: any channel; an in-app one leaves the subscriber's inbox, whose counts are announced. */
@Injectable()
export class DeleteMessage {
  constructor(
    @Inject(MESSAGE_REPOSITORY) private readonly messages: MessageRepository,
    private readonly announce: AnnounceInboxChanges,
  ) {}

  async execute(scope: EnvironmentScope, id: string): Promise<void> {
    const message = await this.messages.findById(scope, id);
    if (!message || !(await this.messages.deleteById(scope, id))) throw new NotFoundError('message_not_found', `Message with id ${id} not found`);
    if (message.channel === 'in_app') await this.announce.countsChanged(scope, message.subscriberId);
  }
}
