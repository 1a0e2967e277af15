import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope } from '@app/kernel';
import { WORKFLOW_REPOSITORY, Workflow, WorkflowRepository } from '@app/workflows';
import { TopicNotFoundError, TopicSubscriptionNotFoundError } from '../../domain/errors';
import { TopicSubscriptionPreference, subscriberIdOfIdentifier } from '../../domain/topic';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';
import { TopicSubscriptionDetails, workflowsOfPreferences } from '../topic-subscription-details';

/** One entry of Novu's subscription `preferences`: the workflows it names (by id or identifier, and by tag) and their choice. */
export interface SubscriptionPreferenceRequest {
  workflowIds?: string[];
  tags?: string[];
  enabled?: boolean;
  condition?: Record<string, unknown>;
}

export interface UpdateTopicSubscriptionCommand {
  scope: EnvironmentScope;
  topicKey: string;
  /** The subscription's identifier (`tk_<key>:si_<subscriberId>`). */
  identifier: string;
  name?: string;
  /** Replaces the subscription's preferences. */
  preferences?: SubscriptionPreferenceRequest[];
}

export interface TopicSubscriptionWithWorkflows extends TopicSubscriptionDetails {
  /** The workflows the subscription's preferences name, by internal id. */
  workflows: Map<string, Workflow>;
}

/**
 * Novu's `PATCH /v2/topics/{key}/subscriptions/{identifier}`: the subscription's name and its own
 * per-workflow preferences. Workflows named but not found are left out, as Novu only logs them.
 */
@Injectable()
export class UpdateTopicSubscription {
  constructor(
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(WORKFLOW_REPOSITORY) private readonly workflowRepository: WorkflowRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: UpdateTopicSubscriptionCommand): Promise<TopicSubscriptionWithWorkflows> {
    const { scope, topicKey } = command;
    const topic = await this.topics.findByKey(scope, topicKey);
    if (!topic) throw new TopicNotFoundError(topicKey);
    const subscriberId = subscriberIdOfIdentifier(topicKey, command.identifier);
    const preferences = command.preferences && (await this.resolve(scope, command.preferences));
    const subscription = subscriberId
      ? await this.topics.updateSubscription(
          scope,
          topicKey,
          subscriberId,
          { ...(command.name !== undefined ? { name: command.name } : {}), ...(preferences ? { preferences } : {}) },
          this.clock.now(),
        )
      : null;
    if (!subscription) throw new TopicSubscriptionNotFoundError(command.identifier, topicKey);
    const subscriber = await this.subscribers.findBySubscriberId(scope, subscription.subscriberId);
    return { subscription, topic, subscriber, workflows: await workflowsOfPreferences(this.workflowRepository, scope, subscription) };
  }

  /** One preference per workflow named; a later entry naming the same workflow wins. */
  private async resolve(scope: EnvironmentScope, requests: SubscriptionPreferenceRequest[]): Promise<TopicSubscriptionPreference[]> {
    const byWorkflow = new Map<string, TopicSubscriptionPreference>();
    let active: Workflow[] | undefined;
    for (const request of requests) {
      const named: Workflow[] = [];
      for (const reference of request.workflowIds ?? []) {
        const workflow = await this.workflowRepository.findByIdOrIdentifier(scope, reference);
        if (workflow) named.push(workflow);
      }
      if (request.tags?.length) {
        active ??= await this.workflowRepository.listActive(scope);
        named.push(...active.filter((w) => w.tags.some((tag) => request.tags!.includes(tag))));
      }
      for (const workflow of named) {
        byWorkflow.set(workflow.id, {
          workflowId: workflow.id,
          enabled: request.enabled ?? true,
          ...(request.condition !== undefined ? { condition: request.condition } : {}),
        });
      }
    }
    return [...byWorkflow.values()];
  }
}
