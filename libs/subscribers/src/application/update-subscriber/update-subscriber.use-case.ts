import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope } from '@app/kernel';
import { SubscriberNotFoundError } from '../../domain/errors';
import { SubscriberChanges, definedChanges } from '../../domain/subscriber-changes';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';
import { SubscriberDetails, oneWithTopics } from '../subscriber-details';

export interface UpdateSubscriberCommand {
  scope: EnvironmentScope;
  subscriberId: string;
  changes: SubscriberChanges;
}

/** PATCH /v2/subscribers/{id}: undefined stays, null clears, `data` is replaced whole. */
@Injectable()
export class UpdateSubscriber {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, subscriberId, changes }: UpdateSubscriberCommand): Promise<SubscriberDetails> {
    const updated = await this.subscribers.update(scope, subscriberId, definedChanges(changes), this.clock.now());
    if (!updated) throw new SubscriberNotFoundError(subscriberId, `Subscriber ${subscriberId} was not found`);
    return oneWithTopics(this.topics, scope, updated);
  }
}
