import { EnvironmentScope } from '@app/kernel';
import { Workflow, WorkflowRepository } from '@app/workflows';
import { Subscriber } from '../domain/subscriber';
import { Topic, TopicSubscription } from '../domain/topic';
import { SubscriberRepository } from '../ports/subscriber.repository.port';

/** A membership as the API shows it: with its topic and a summary of its subscriber. */
export interface TopicSubscriptionDetails {
  subscription: TopicSubscription;
  topic: Topic;
  subscriber: Subscriber | null;
}

/** Per-subscriber problem in a batch subscribe/unsubscribe (the rest of the batch still applies). */
export interface TopicSubscriptionError {
  subscriberId: string;
  code: 'SUBSCRIBER_NOT_FOUND' | 'SUBSCRIPTION_NOT_FOUND';
  message: string;
}

export async function withSubscribers(
  subscribers: SubscriberRepository,
  scope: EnvironmentScope,
  topic: Topic,
  subscriptions: TopicSubscription[],
): Promise<TopicSubscriptionDetails[]> {
  const found = subscriptions.length
    ? await subscribers.findManyBySubscriberIds(
        scope,
        subscriptions.map((s) => s.subscriberId),
      )
    : [];
  const byId = new Map(found.map((s) => [s.subscriberId, s]));
  return subscriptions.map((subscription) => ({ subscription, topic, subscriber: byId.get(subscription.subscriberId) ?? null }));
}

/** The workflows a subscription's preferences are for, by internal id (one deleted since is left out). */
export async function workflowsOfPreferences(
  workflows: WorkflowRepository,
  scope: EnvironmentScope,
  subscription: TopicSubscription,
): Promise<Map<string, Workflow>> {
  const found = new Map<string, Workflow>();
  for (const preference of subscription.preferences ?? []) {
    const workflow = await workflows.findById(scope, preference.workflowId);
    if (workflow) found.set(workflow.id, workflow);
  }
  return found;
}
