import { Inject, Injectable } from '@nestjs/common';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '@app/subscribers';
import { NotificationBatches } from './notification-batches';
import { FanOutRun, RecipientSource } from './recipient-source';

/**
 * A broadcast reaches every subscriber of the environment (the actor too, as in Novu), read in
 * pages by id: one page is held while the one before it delivers, whatever the audience size.
 */
@Injectable()
export class BroadcastRecipients implements RecipientSource {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    private readonly batches: NotificationBatches,
  ) {}

  async deliver({ scope, context, batchSize }: FanOutRun): Promise<boolean> {
    if (!context.trigger.broadcast) return true;
    return this.batches.deliverPaged(scope, context, (cursor) => this.subscribers.listBatch(scope, cursor, batchSize));
  }
}
