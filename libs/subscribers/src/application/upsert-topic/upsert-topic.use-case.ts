import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, newId } from '@app/kernel';
import { TopicAlreadyExistsError } from '../../domain/errors';
import { Topic } from '../../domain/topic';
import { TOPIC_REPOSITORY, TopicRepository } from '../../ports/topic.repository.port';

export interface UpsertTopicCommand {
  scope: EnvironmentScope;
  key: string;
  name?: string;
  /** Refuse (409) instead of updating an existing topic. */
  failIfExists: boolean;
}

/** POST /v2/topics: creates the topic, or renames the existing one of that key (Novu's upsert). */
@Injectable()
export class UpsertTopic {
  constructor(
    @Inject(TOPIC_REPOSITORY) private readonly topics: TopicRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: UpsertTopicCommand): Promise<{ topic: Topic; created: boolean }> {
    const now = this.clock.now();
    const topic: Topic = {
      id: newId(now.getTime()),
      organizationId: command.scope.organizationId,
      environmentId: command.scope.environmentId,
      key: command.key,
      ...(command.name !== undefined ? { name: command.name } : {}),
      createdAt: now,
      updatedAt: now,
    };
    if (!command.failIfExists) return this.topics.upsert(topic);
    if (!(await this.topics.insert(topic))) throw new TopicAlreadyExistsError(command.key);
    return { topic, created: true };
  }
}
