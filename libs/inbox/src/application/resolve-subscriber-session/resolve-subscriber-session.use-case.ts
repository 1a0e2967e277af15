import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { SUBSCRIBER_REPOSITORY, Subscriber, SubscriberNotFoundError, SubscriberRepository } from '@app/subscribers';
import { FeedSubscriberNotFoundError } from '../../domain/errors';
import { SubscriberSession } from '../../domain/subscriber-session';

/** A session opened with the API key, with the subscriber it speaks for. */
export interface ServerSubscriberSession extends SubscriberSession {
  subscriber: Subscriber;
}

/**
 * Server side (API key): the session of a subscriber named by its subscriberId, so Novu's v1
 * subscriber routes (feed, counts, marks, actions, online status) run the Inbox's own use cases.
 */
@Injectable()
export class ResolveSubscriberSession {
  constructor(@Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository) {}

  /** `unknown`: how an unknown subscriber is refused, 404 (`not_found`) or, as Novu's feed reads and actions, 400 (`invalid`). */
  async execute(scope: EnvironmentScope, subscriberId: string, unknown: 'not_found' | 'invalid' = 'not_found'): Promise<ServerSubscriberSession> {
    const subscriber = await this.subscribers.findBySubscriberId(scope, subscriberId);
    if (!subscriber) throw unknown === 'invalid' ? new FeedSubscriberNotFoundError(subscriberId) : new SubscriberNotFoundError(subscriberId);
    return { organizationId: scope.organizationId, environmentId: scope.environmentId, subscriberInternalId: subscriber.id, subscriberId, subscriber };
  }
}
