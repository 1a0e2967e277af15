import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { TopicNotFoundError } from '../../domain/errors';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';
import { TopicWithMembers, withMembers } from '../topic-members';

export interface GetTopicMembersQuery {
  scope: EnvironmentScope;
  key: string;
}

/** A topic with the subscriberIds of all its members (Novu's v1 topic shape). */
@Injectable()
export class GetTopicMembers {
  constructor(@Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository) {}

  async execute({ scope, key }: GetTopicMembersQuery): Promise<TopicWithMembers> {
    const topic = await this.topics.findByKey(scope, key);
    if (!topic) throw new TopicNotFoundError(key);
    return withMembers(this.topics, scope, topic);
  }
}
