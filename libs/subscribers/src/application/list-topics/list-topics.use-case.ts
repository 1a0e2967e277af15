import { Inject, Injectable } from '@nestjs/common';
import { CursorPage, EnvironmentScope } from '@app/kernel';
import { BothCursorsGivenError } from '../../domain/errors';
import { Topic } from '../../domain/topic';
import { TOPIC_REPOSITORY, TopicRepository, TopicSearch } from '../../ports/topic.repository.port';

export interface ListTopicsCommand extends TopicSearch {
  scope: EnvironmentScope;
}

@Injectable()
export class ListTopics {
  constructor(@Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository) {}

  async execute({ scope, ...search }: ListTopicsCommand): Promise<CursorPage<Topic>> {
    if (search.after !== undefined && search.before !== undefined) throw new BothCursorsGivenError();
    return this.topics.search(scope, search);
  }
}
