import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope } from '@app/kernel';
import { SubscriberChannelsContendedError, SubscriberNotFoundError } from '../../domain/errors';
import { removeProviderChannels } from '../../domain/subscriber-channels';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';

export interface DeleteSubscriberCredentialsCommand {
  scope: EnvironmentScope;
  subscriberId: string;
  providerId: string;
}

const MAX_ATTEMPTS = 10;

/** DELETE /v1/subscribers/{id}/credentials/{providerId}: drops every channel entry of that provider. */
@Injectable()
export class DeleteSubscriberCredentials {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, subscriberId, providerId }: DeleteSubscriberCredentialsCommand): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const subscriber = await this.subscribers.findBySubscriberId(scope, subscriberId);
      if (!subscriber) throw new SubscriberNotFoundError(subscriberId);
      const next = removeProviderChannels(subscriber.channels, providerId);
      if (next.length === subscriber.channels.length) return;
      if (await this.subscribers.replaceChannels(scope, subscriberId, subscriber.channels, next, this.clock.now())) return;
    }
    throw new SubscriberChannelsContendedError(subscriberId);
  }
}
