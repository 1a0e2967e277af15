import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { TopicNotFoundError } from '../../domain/errors';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';
import { TopicSubscriptionsResult } from '../add-topic-subscriptions/add-topic-subscriptions.use-case';
import { TopicSubscriptionError, withSubscribers } from '../topic-subscription-details';

export interface RemoveTopicSubscriptionsCommand {
  scope: EnvironmentScope;
  topicKey: string;
  subscriberIds: string[];
}

/** DELETE /v2/topics/{key}/subscriptions: ids that were not members are reported per id. */
@Injectable()
export class RemoveTopicSubscriptions {
  constructor(
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
  ) {}

  async execute({ scope, topicKey, subscriberIds }: RemoveTopicSubscriptionsCommand): Promise<TopicSubscriptionsResult> {
    const topic = await this.topics.findByKey(scope, topicKey);
    if (!topic) throw new TopicNotFoundError(topicKey);
    const requested = [...new Set(subscriberIds)];
    const removed = await this.topics.removeSubscriptions(scope, topicKey, requested);
    const removedIds = new Set(removed.map((s) => s.subscriberId));
    const errors: TopicSubscriptionError[] = requested
      .filter((id) => !removedIds.has(id))
      .map((subscriberId) => ({
        subscriberId,
        code: 'SUBSCRIPTION_NOT_FOUND',
        message: `Subscriber with id: ${subscriberId} is not subscribed to topic ${topicKey}`,
      }));
    return { subscriptions: await withSubscribers(this.subscribers, scope, topic, removed), errors, requested: requested.length };
  }
}
