import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, PageRequest } from '@app/kernel';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';
import { SubscriberDetails, withTopics } from '../subscriber-details';

export interface ListSubscribersPageCommand extends PageRequest {
  scope: EnvironmentScope;
}

/** GET /v1/subscribers: the environment's subscribers page by page, oldest first, as Novu's v1 list. */
@Injectable()
export class ListSubscribersPage {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
  ) {}

  async execute({ scope, page, limit }: ListSubscribersPageCommand): Promise<{ items: SubscriberDetails[]; hasMore: boolean }> {
    const found = await this.subscribers.listPage(scope, { page, limit });
    return { items: await withTopics(this.topics, scope, found.items), hasMore: found.hasMore };
  }
}
