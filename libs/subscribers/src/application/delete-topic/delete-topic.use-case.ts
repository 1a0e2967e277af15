import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { TopicHasSubscribersError, TopicNotFoundError } from '../../domain/errors';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';

export interface DeleteTopicCommand {
  scope: EnvironmentScope;
  key: string;
  /** Novu's v1 rule: refuse (409) while the topic has members, rather than deleting them with it. */
  onlyIfEmpty?: boolean;
}

/** Deletes the topic with all its memberships (or, `onlyIfEmpty`, only a topic without any). */
@Injectable()
export class DeleteTopic {
  constructor(@Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository) {}

  async execute({ scope, key, onlyIfEmpty }: DeleteTopicCommand): Promise<void> {
    if (onlyIfEmpty) {
      if (!(await this.topics.findByKey(scope, key))) throw new TopicNotFoundError(key);
      if ((await this.topics.listMemberIds(scope, key, null, 1)).subscriberIds.length) throw new TopicHasSubscribersError(key);
    }
    if (!(await this.topics.delete(scope, key))) throw new TopicNotFoundError(key);
  }
}
