import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { TopicNotFoundError, TopicMemberNotFoundError } from '../../domain/errors';
import { TopicSubscription } from '../../domain/topic';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';

export interface GetTopicSubscriptionQuery {
  scope: EnvironmentScope;
  topicKey: string;
  subscriberId: string;
}

/** Whether a subscriber belongs to a topic: its membership, or 404. */
@Injectable()
export class GetTopicSubscription {
  constructor(@Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository) {}

  async execute({ scope, topicKey, subscriberId }: GetTopicSubscriptionQuery): Promise<TopicSubscription> {
    if (!(await this.topics.findByKey(scope, topicKey))) throw new TopicNotFoundError(topicKey);
    const page = await this.topics.listSubscriptions(scope, topicKey, {
      subscriberId,
      limit: 1,
      includeCursor: false,
      orderDirection: 'ASC',
      orderBy: '_id',
    });
    const [subscription] = page.items;
    if (!subscription) throw new TopicMemberNotFoundError(topicKey, subscriberId);
    return subscription;
  }
}
