import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { SUBSCRIBER_REPOSITORY, SubscriberNotFoundError, SubscriberRepository } from '@app/subscribers';
import { SubscriberSession } from '../../domain/subscriber-session';

/**
 * Server side (API key): the session of a subscriber named by its subscriberId, so Novu's v1
 * subscriber routes (feed, counts, marks, actions, online status) run the Inbox's own use cases.
 */
@Injectable()
export class ResolveSubscriberSession {
  constructor(@Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository) {}

  async execute(scope: EnvironmentScope, subscriberId: string): Promise<SubscriberSession> {
    const subscriber = await this.subscribers.findBySubscriberId(scope, subscriberId);
    if (!subscriber) throw new SubscriberNotFoundError(subscriberId);
    return { organizationId: scope.organizationId, environmentId: scope.environmentId, subscriberInternalId: subscriber.id, subscriberId };
  }
}
