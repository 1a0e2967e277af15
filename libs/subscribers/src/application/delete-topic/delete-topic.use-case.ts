import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { TopicNotFoundError } from '../../domain/errors';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';

export interface DeleteTopicCommand {
  scope: EnvironmentScope;
  key: string;
}

/** Deletes the topic with all its memberships. */
@Injectable()
export class DeleteTopic {
  constructor(@Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository) {}

  async execute({ scope, key }: DeleteTopicCommand): Promise<void> {
    if (!(await this.topics.delete(scope, key))) throw new TopicNotFoundError(key);
  }
}
