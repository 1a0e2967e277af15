import { EnvironmentScope } from '@app/kernel';
import { Subscriber } from '../domain/subscriber';
import { TopicRepository } from '../ports/topic.repository.port';

/** A subscriber as the API shows it: with the keys of the topics it belongs to. */
export interface SubscriberDetails {
  subscriber: Subscriber;
  topics: string[];
}

export async function withTopics(topics: TopicRepository, scope: EnvironmentScope, subscribers: Subscriber[]): Promise<SubscriberDetails[]> {
  if (subscribers.length === 0) return [];
  const keys = await topics.topicKeysOfSubscribers(
    scope,
    subscribers.map((s) => s.subscriberId),
  );
  return subscribers.map((subscriber) => ({ subscriber, topics: keys.get(subscriber.subscriberId) ?? [] }));
}

export async function oneWithTopics(topics: TopicRepository, scope: EnvironmentScope, subscriber: Subscriber): Promise<SubscriberDetails> {
  const [details] = await withTopics(topics, scope, [subscriber]);
  return details;
}
