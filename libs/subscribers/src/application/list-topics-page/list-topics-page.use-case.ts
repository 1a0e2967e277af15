import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, Page } from '@app/kernel';
import { TopicPageSizeTooLargeError } from '../../domain/errors';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';
import { TopicWithMembers, withMembers } from '../topic-members';

export interface ListTopicsPageCommand {
  scope: EnvironmentScope;
  /** 0-based. */
  page: number;
  pageSize: number;
  /** Exact key: the page holds that topic or nothing. */
  key?: string;
}

/** Novu's page size limit of GET /v1/topics. */
export const MAX_TOPICS_PAGE_SIZE = 10;

/** GET /v1/topics: topics page by page, each with its members (hence the small pages, as in Novu). */
@Injectable()
export class ListTopicsPage {
  constructor(@Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository) {}

  async execute({ scope, page, pageSize, key }: ListTopicsPageCommand): Promise<Page<TopicWithMembers>> {
    if (pageSize > MAX_TOPICS_PAGE_SIZE) throw new TopicPageSizeTooLargeError(MAX_TOPICS_PAGE_SIZE);
    const found = await this.topics.list(scope, { page, limit: pageSize }, { key });
    const items: TopicWithMembers[] = [];
    for (const topic of found.items) items.push(await withMembers(this.topics, scope, topic));
    return { items, totalCount: found.totalCount };
  }
}
