import {
  SubscriptionPreferenceRequest,
  TopicSubscription,
  TopicSubscriptionDetails,
  TopicSubscriptionWithWorkflows,
  TopicSubscriptionsResult,
  subscriptionIdentifier,
} from '@app/subscribers';
import { Workflow } from '@app/workflows';
import { toSubscriptionSubscriber } from '../shared-dto/topic-subscription.mapper';
import { SubscriptionDetailsResponseDto, SubscriptionPreferenceDto, SubscriptionResponseDto, SubscriptionsResultDto } from './topic.dto';

export function toSubscriptionResponse({ subscription, topic, subscriber }: TopicSubscriptionDetails): SubscriptionResponseDto {
  return {
    _id: subscription.id,
    identifier: subscriptionIdentifier(subscription.topicKey, subscription.subscriberId),
    ...(subscription.name !== undefined ? { name: subscription.name } : {}),
    topic: { _id: topic.id, key: topic.key, ...(topic.name !== undefined ? { name: topic.name } : {}) },
    subscriber: toSubscriptionSubscriber(subscriber),
    createdAt: subscription.createdAt.toISOString(),
    updatedAt: subscription.updatedAt.toISOString(),
  };
}

export function toSubscriptionsResult(result: TopicSubscriptionsResult): SubscriptionsResultDto {
  return {
    data: result.subscriptions.map(toSubscriptionResponse),
    meta: { totalCount: result.requested, successful: result.subscriptions.length, failed: result.errors.length },
    ...(result.errors.length ? { errors: result.errors } : {}),
  };
}

/** The body's preference entries in the use case's terms (the DTO has checked their shapes). */
export function toSubscriptionPreferenceRequests(preferences: unknown[]): SubscriptionPreferenceRequest[] {
  return preferences.map((entry) => {
    if (typeof entry === 'string') return { workflowIds: [entry] };
    const { workflowId, filter, enabled, condition } = entry as {
      workflowId?: string;
      filter?: { workflowIds?: string[]; tags?: string[] };
      enabled?: boolean;
      condition?: Record<string, unknown>;
    };
    return {
      ...(workflowId !== undefined ? { workflowIds: [workflowId] } : { workflowIds: filter?.workflowIds, tags: filter?.tags }),
      ...(enabled !== undefined ? { enabled } : {}),
      ...(condition !== undefined ? { condition } : {}),
    };
  });
}

/** A subscription's own preferences, each with the workflow it is for (left out when that workflow is gone). */
function toSubscriptionPreferences(subscription: TopicSubscription, workflows: Map<string, Workflow>): SubscriptionPreferenceDto[] {
  const identifier = subscriptionIdentifier(subscription.topicKey, subscription.subscriberId);
  return (subscription.preferences ?? []).map((preference): SubscriptionPreferenceDto => {
    const workflow = workflows.get(preference.workflowId);
    return {
      subscriptionId: identifier,
      ...(workflow
        ? {
            workflow: {
              id: workflow.id,
              identifier: workflow.trigger.identifier,
              name: workflow.name,
              critical: workflow.critical,
              tags: workflow.tags,
              ...(workflow.data ? { data: workflow.data } : {}),
              severity: 'none',
            },
          }
        : {}),
      enabled: preference.enabled,
      ...(preference.condition ? { condition: preference.condition } : {}),
    };
  });
}

export function toUpdatedSubscriptionResponse(details: TopicSubscriptionWithWorkflows): SubscriptionResponseDto {
  const preferences = toSubscriptionPreferences(details.subscription, details.workflows);
  return { ...toSubscriptionResponse(details), ...(preferences.length ? { preferences } : {}) };
}

export function toSubscriptionDetailsResponse(subscription: TopicSubscription, workflows: Map<string, Workflow>): SubscriptionDetailsResponseDto {
  return {
    id: subscription.id,
    identifier: subscriptionIdentifier(subscription.topicKey, subscription.subscriberId),
    ...(subscription.name !== undefined ? { name: subscription.name } : {}),
    preferences: toSubscriptionPreferences(subscription, workflows),
  };
}
