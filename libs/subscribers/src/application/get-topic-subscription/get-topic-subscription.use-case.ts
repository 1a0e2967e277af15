import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { WORKFLOW_REPOSITORY, Workflow, WorkflowRepository } from '@app/workflows';
import { TopicNotFoundError, TopicMemberNotFoundError, TopicSubscriptionNotFoundError } from '../../domain/errors';
import { TopicSubscription, subscriberIdOfIdentifier } from '../../domain/topic';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';
import { workflowsOfPreferences } from '../topic-subscription-details';

export interface GetTopicSubscriptionQuery {
  scope: EnvironmentScope;
  topicKey: string;
  subscriberId: string;
}

export interface GetTopicSubscriptionByIdentifierQuery {
  scope: EnvironmentScope;
  topicKey: string;
  /** The subscription's identifier (`tk_<key>:si_<subscriberId>`). */
  identifier: string;
}

/** One membership of a topic, or 404. */
@Injectable()
export class GetTopicSubscription {
  constructor(
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
  ) {}

  /** Whether a subscriber belongs to a topic (Novu's v1 check). */
  async execute({ scope, topicKey, subscriberId }: GetTopicSubscriptionQuery): Promise<TopicSubscription> {
    await this.topicOf(scope, topicKey);
    const subscription = await this.find(scope, topicKey, subscriberId);
    if (!subscription) throw new TopicMemberNotFoundError(topicKey, subscriberId);
    return subscription;
  }

  /** A subscription by its identifier, with the workflows its preferences are for (Novu's v2 read). */
  async byIdentifier({ scope, topicKey, identifier }: GetTopicSubscriptionByIdentifierQuery): Promise<{
    subscription: TopicSubscription;
    workflows: Map<string, Workflow>;
  }> {
    await this.topicOf(scope, topicKey);
    const subscriberId = subscriberIdOfIdentifier(topicKey, identifier);
    const subscription = subscriberId && (await this.find(scope, topicKey, subscriberId));
    if (!subscription) throw new TopicSubscriptionNotFoundError(identifier, topicKey);
    return { subscription, workflows: await workflowsOfPreferences(this.workflows, scope, subscription) };
  }

  private async topicOf(scope: EnvironmentScope, topicKey: string): Promise<void> {
    if (!(await this.topics.findByKey(scope, topicKey))) throw new TopicNotFoundError(topicKey);
  }

  private async find(scope: EnvironmentScope, topicKey: string, subscriberId: string): Promise<TopicSubscription | undefined> {
    const page = await this.topics.listSubscriptions(scope, topicKey, {
      subscriberId,
      limit: 1,
      includeCursor: false,
      orderDirection: 'ASC',
      orderBy: '_id',
    });
    return page.items[0];
  }
}
