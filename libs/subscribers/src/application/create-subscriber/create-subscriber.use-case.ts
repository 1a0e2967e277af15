import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, newId } from '@app/kernel';
import { SubscriberAlreadyExistsError } from '../../domain/errors';
import { Subscriber } from '../../domain/subscriber';
import { SubscriberChanges, clearedBy, definedChanges } from '../../domain/subscriber-changes';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';
import { SubscriberDetails, oneWithTopics } from '../subscriber-details';

export interface CreateSubscriberCommand {
  scope: EnvironmentScope;
  subscriberId: string;
  changes: SubscriberChanges;
  /** Novu's `failIfExists`: refuse (409) instead of updating an existing subscriber. */
  failIfExists: boolean;
}

/**
 * POST /v2/subscribers. As Novu: an existing subscriber is updated with the fields given (an upsert),
 * unless `failIfExists` asks for a 409.
 */
@Injectable()
export class CreateSubscriber {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: CreateSubscriberCommand): Promise<SubscriberDetails> {
    const { scope, subscriberId } = command;
    const now = this.clock.now();
    const changes = definedChanges(command.changes);
    if (!command.failIfExists) {
      const { subscriber } = await this.subscribers.upsert(scope, { id: newId(now.getTime()), subscriberId, changes, now });
      return oneWithTopics(this.topics, scope, subscriber);
    }
    const subscriber: Subscriber = {
      id: newId(now.getTime()),
      organizationId: scope.organizationId,
      environmentId: scope.environmentId,
      subscriberId,
      ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== null)),
      ...(clearedBy(changes).length ? { cleared: clearedBy(changes) } : {}),
      channels: [],
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.subscribers.insert(subscriber))) throw new SubscriberAlreadyExistsError(subscriberId);
    return { subscriber, topics: [] };
  }
}
