import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { SubscriberNotFoundError } from '../../domain/errors';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';
import { SubscriberDetails, oneWithTopics } from '../subscriber-details';

export interface GetSubscriberCommand {
  scope: EnvironmentScope;
  subscriberId: string;
}

@Injectable()
export class GetSubscriber {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
  ) {}

  async execute({ scope, subscriberId }: GetSubscriberCommand): Promise<SubscriberDetails> {
    const subscriber = await this.subscribers.findBySubscriberId(scope, subscriberId);
    if (!subscriber) throw new SubscriberNotFoundError(subscriberId);
    return oneWithTopics(this.topics, scope, subscriber);
  }
}
