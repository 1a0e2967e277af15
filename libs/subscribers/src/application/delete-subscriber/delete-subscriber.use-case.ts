import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { SubscriberNotFoundError } from '../../domain/errors';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';

export interface DeleteSubscriberCommand {
  scope: EnvironmentScope;
  subscriberId: string;
}

/** Deletes the subscriber and its topic memberships (memberships first: a retry after a crash finishes the job). */
@Injectable()
export class DeleteSubscriber {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
  ) {}

  async execute({ scope, subscriberId }: DeleteSubscriberCommand): Promise<void> {
    if (!(await this.subscribers.findBySubscriberId(scope, subscriberId))) throw new SubscriberNotFoundError(subscriberId);
    await this.topics.removeSubscriber(scope, subscriberId);
    if (!(await this.subscribers.delete(scope, subscriberId))) throw new SubscriberNotFoundError(subscriberId);
  }
}
