import { Inject, Injectable } from '@nestjs/common';
import { CursorPage, EnvironmentScope } from '@app/kernel';
import { BothCursorsGivenError } from '../../domain/errors';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository, SubscriberSearch } from '../../ports/subscriber.repository.port';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';
import { SubscriberDetails, withTopics } from '../subscriber-details';

export interface SearchSubscribersCommand extends SubscriberSearch {
  scope: EnvironmentScope;
}

/** GET /v2/subscribers: filtered, cursor-paginated, as Novu's search. */
@Injectable()
export class SearchSubscribers {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
  ) {}

  async execute({ scope, ...search }: SearchSubscribersCommand): Promise<CursorPage<SubscriberDetails>> {
    if (search.after !== undefined && search.before !== undefined) throw new BothCursorsGivenError();
    const page = await this.subscribers.search(scope, search);
    return { ...page, items: await withTopics(this.topics, scope, page.items) };
  }
}
