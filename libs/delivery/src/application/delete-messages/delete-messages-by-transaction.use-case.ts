import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, NotFoundError } from '@app/kernel';
import { MESSAGE_REPOSITORY, MessageRepository } from '../../ports/message.repository.port';

/** DELETE /v1/messages/transaction/{transactionId}?channel=: 404 when nothing matches. */
@Injectable()
export class DeleteMessagesByTransaction {
  constructor(@Inject(MESSAGE_REPOSITORY) private readonly messages: MessageRepository) {}

  async execute(scope: EnvironmentScope, transactionId: string, channel?: string): Promise<void> {
    const deleted = await this.messages.deleteByTransaction(scope, transactionId, channel);
    if (deleted === 0) throw new NotFoundError('messages_not_found', 'Invalid transactionId or channel');
  }
}
