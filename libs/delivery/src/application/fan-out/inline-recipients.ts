import { Injectable, Logger } from '@nestjs/common';
import { Subscriber, SubscriberChanges, UpdateSubscriberCredentials, UpsertSubscribers } from '@app/subscribers';
import { InlineSubscriber } from '../../domain/recipients';
import { NotificationBatches } from './notification-batches';
import { FanOutRun, RecipientSource } from './recipient-source';

export const changesOf = ({ subscriberId: _id, channels: _channels, ...changes }: InlineSubscriber): SubscriberChanges => changes;

/** The subscribers named in `to`: upserted as given (their channel credentials appended), then delivered to. */
@Injectable()
export class InlineRecipients implements RecipientSource {
  private readonly logger = new Logger(InlineRecipients.name);

  constructor(
    private readonly upsertSubscribers: UpsertSubscribers,
    private readonly updateCredentials: UpdateSubscriberCredentials,
    private readonly batches: NotificationBatches,
  ) {}

  async deliver({ scope, recipients, context, batchSize, seen }: FanOutRun): Promise<boolean> {
    const inline = recipients.to.subscribers;
    inline.forEach((subscriber) => seen.add(subscriber.subscriberId));
    const subscribers = await this.upsert(scope, inline);
    for (let start = 0; start < subscribers.length; start += batchSize) await this.batches.deliver(scope, subscribers.slice(start, start + batchSize), context);
    return true;
  }

  private async upsert(scope: FanOutRun['scope'], inline: InlineSubscriber[]): Promise<Subscriber[]> {
    if (!inline.length) return [];
    const results = await this.upsertSubscribers.execute({
      scope,
      subscribers: inline.map((s) => ({ subscriberId: s.subscriberId, changes: changesOf(s) })),
    });
    const byId = new Map(results.map((r) => [r.subscriber.subscriberId, r.subscriber]));
    for (const subscriber of inline) {
      for (const channel of subscriber.channels ?? []) {
        try {
          const updated = await this.updateCredentials.execute({
            scope,
            subscriberId: subscriber.subscriberId,
            providerId: channel.providerId,
            integrationIdentifier: channel.integrationIdentifier,
            credentials: channel.credentials,
            mode: 'append',
          });
          byId.set(subscriber.subscriberId, { ...byId.get(subscriber.subscriberId)!, channels: updated.subscriber.channels });
        } catch (error) {
          this.logger.warn(`Credentials of ${subscriber.subscriberId} for ${channel.providerId} not stored: ${(error as Error).message}`);
        }
      }
    }
    return [...byId.values()];
  }
}
