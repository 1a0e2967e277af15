import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope } from '@app/kernel';
import { TopicNotFoundError } from '../../domain/errors';
import { Topic } from '../../domain/topic';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';

export interface UpdateTopicCommand {
  scope: EnvironmentScope;
  key: string;
  name?: string;
}

/** PATCH /v2/topics/{key}: the name is the only thing that changes (the key is the topic's identity). */
@Injectable()
export class UpdateTopic {
  constructor(
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, key, name }: UpdateTopicCommand): Promise<Topic> {
    const topic = name === undefined ? await this.topics.findByKey(scope, key) : await this.topics.rename(scope, key, name, this.clock.now());
    if (!topic) throw new TopicNotFoundError(key);
    return topic;
  }
}
