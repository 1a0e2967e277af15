import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, newId } from '@app/kernel';
import { InvalidTopicKeyError } from '../../domain/errors';
import { TOPIC_KEY_PATTERN, Topic } from '../../domain/topic';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';
import { TopicSubscriptionDetails, TopicSubscriptionError, withSubscribers } from '../topic-subscription-details';

export interface AddTopicSubscriptionsCommand {
  scope: EnvironmentScope;
  topicKey: string;
  subscriberIds: string[];
}

export interface TopicSubscriptionsResult {
  subscriptions: TopicSubscriptionDetails[];
  errors: TopicSubscriptionError[];
  /** How many distinct subscriberIds were asked for. */
  requested: number;
}

/**
 * POST /v2/topics/{key}/subscriptions: subscribes existing subscribers (creating the topic if it is
 * missing, as Novu does); unknown subscriberIds are reported per id, the others still subscribe.
 */
@Injectable()
export class AddTopicSubscriptions {
  constructor(
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, topicKey, subscriberIds }: AddTopicSubscriptionsCommand): Promise<TopicSubscriptionsResult> {
    const requested = [...new Set(subscriberIds)];
    const now = this.clock.now();
    const existing = await this.topics.findByKey(scope, topicKey);
    if (!existing && !TOPIC_KEY_PATTERN.test(topicKey)) throw new InvalidTopicKeyError(topicKey);
    const topic: Topic =
      existing ??
      (
        await this.topics.upsert({
          id: newId(now.getTime()),
          organizationId: scope.organizationId,
          environmentId: scope.environmentId,
          key: topicKey,
          createdAt: now,
          updatedAt: now,
        })
      ).topic;
    const found = await this.subscribers.findManyBySubscriberIds(scope, requested);
    const byId = new Map(found.map((s) => [s.subscriberId, s]));
    const members = requested.filter((id) => byId.has(id)).map((id) => ({ subscriberInternalId: byId.get(id)!.id, subscriberId: id }));
    const subscriptions = members.length ? await this.topics.addSubscriptions(topic, members, now, () => newId(now.getTime())) : [];
    const errors: TopicSubscriptionError[] = requested
      .filter((id) => !byId.has(id))
      .map((subscriberId) => ({ subscriberId, code: 'SUBSCRIBER_NOT_FOUND', message: `Subscriber with id: ${subscriberId} was not found` }));
    return { subscriptions: await withSubscribers(this.subscribers, scope, topic, subscriptions), errors, requested: requested.length };
  }
}
