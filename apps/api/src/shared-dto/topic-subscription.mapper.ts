import { Subscriber, Topic, TopicSubscriptionDetails, subscriptionIdentifier } from '@app/subscribers';
import { definedOnly } from './defined-only';
import { SubscriptionSubscriberDto } from './subscriber.dto';
import { TopicResponseDto, TopicSubscriptionResponseDto } from './topic-subscription.dto';

export function toTopicResponse(topic: Topic): TopicResponseDto {
  return {
    _id: topic.id,
    key: topic.key,
    ...(topic.name !== undefined ? { name: topic.name } : {}),
    createdAt: topic.createdAt.toISOString(),
    updatedAt: topic.updatedAt.toISOString(),
  };
}

export function toSubscriptionSubscriber(s: Subscriber | null): SubscriptionSubscriberDto | null {
  if (!s) return null;
  const optional = { avatar: s.avatar, firstName: s.firstName, lastName: s.lastName, email: s.email };
  return { _id: s.id, subscriberId: s.subscriberId, ...definedOnly(optional) };
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
