import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { TopicNotFoundError } from '../../domain/errors';
import { Topic } from '../../domain/topic';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';

export interface GetTopicCommand {
  scope: EnvironmentScope;
  key: string;
}

@Injectable()
export class GetTopic {
  constructor(@Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository) {}

  async execute({ scope, key }: GetTopicCommand): Promise<Topic> {
    const topic = await this.topics.findByKey(scope, key);
    if (!topic) throw new TopicNotFoundError(key);
    return topic;
  }
}
