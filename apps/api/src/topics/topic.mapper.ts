import { Subscriber, Topic, TopicSubscriptionDetails, TopicSubscriptionsResult, subscriptionIdentifier } from '@app/subscribers';
import { SubscriptionResponseDto, SubscriptionSubscriberDto, SubscriptionsResultDto, TopicResponseDto, TopicSubscriptionResponseDto } from './topic.dto';

export function toTopicResponse(topic: Topic): TopicResponseDto {
  return {
    _id: topic.id,
    key: topic.key,
    ...(topic.name !== undefined ? { name: topic.name } : {}),
    createdAt: topic.createdAt.toISOString(),
    updatedAt: topic.updatedAt.toISOString(),
  };
}

function toSubscriptionSubscriber(s: Subscriber | null): SubscriptionSubscriberDto | null {
  if (!s) return null;
  const optional = { avatar: s.avatar, firstName: s.firstName, lastName: s.lastName, email: s.email };
  return { _id: s.id, subscriberId: s.subscriberId, ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)) };
}

export function toSubscriptionResponse({ subscription, topic, subscriber }: TopicSubscriptionDetails): SubscriptionResponseDto {
  return {
    _id: subscription.id,
    identifier: subscriptionIdentifier(subscription.topicKey, subscription.subscriberId),
    topic: { _id: topic.id, key: topic.key, ...(topic.name !== undefined ? { name: topic.name } : {}) },
    subscriber: toSubscriptionSubscriber(subscriber),
    createdAt: subscription.createdAt.toISOString(),
    updatedAt: subscription.updatedAt.toISOString(),
  };
}

export function toTopicSubscriptionResponse({ subscription, topic, subscriber }: TopicSubscriptionDetails): TopicSubscriptionResponseDto {
  return {
    _id: subscription.id,
    identifier: subscriptionIdentifier(subscription.topicKey, subscription.subscriberId),
    createdAt: subscription.createdAt.toISOString(),
    topic: toTopicResponse(topic),
    subscriber: toSubscriptionSubscriber(subscriber),
  };
}

export function toSubscriptionsResult(result: TopicSubscriptionsResult): SubscriptionsResultDto {
  return {
    data: result.subscriptions.map(toSubscriptionResponse),
    meta: { totalCount: result.requested, successful: result.subscriptions.length, failed: result.errors.length },
    ...(result.errors.length ? { errors: result.errors } : {}),
  };
}
