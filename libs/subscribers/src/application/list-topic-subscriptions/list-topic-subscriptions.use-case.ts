import { Inject, Injectable } from '@nestjs/common';
import { CursorPage, EnvironmentScope } from '@app/kernel';
import { BothCursorsGivenError, TopicNotFoundError } from '../../domain/errors';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';
import { TOPIC_REPOSITORY, TopicRepository, TopicSubscriptionSearch } from '../../ports/topic.repository.port';
import { TopicSubscriptionDetails, withSubscribers } from '../topic-subscription-details';

export interface ListTopicSubscriptionsCommand extends TopicSubscriptionSearch {
  scope: EnvironmentScope;
  topicKey: string;
}

@Injectable()
export class ListTopicSubscriptions {
  constructor(
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
  ) {}

  async execute({ scope, topicKey, ...search }: ListTopicSubscriptionsCommand): Promise<CursorPage<TopicSubscriptionDetails>> {
    if (search.after !== undefined && search.before !== undefined) throw new BothCursorsGivenError();
    const topic = await this.topics.findByKey(scope, topicKey);
    if (!topic) throw new TopicNotFoundError(topicKey);
    const page = await this.topics.listSubscriptions(scope, topicKey, search);
    return { ...page, items: await withSubscribers(this.subscribers, scope, topic, page.items) };
  }
}
