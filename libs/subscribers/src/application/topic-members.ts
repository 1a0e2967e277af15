import { EnvironmentScope } from '@app/kernel';
import { Topic } from '../domain/topic';
import { TopicRepository } from '../ports/topic.repository.port';

/** A topic with the subscriberIds of all its members, as Novu's v1 topic routes answer it. */
export interface TopicWithMembers {
  topic: Topic;
  subscriberIds: string[];
}

const MEMBER_BATCH = 1000;

/** Every member of a topic, read a batch at a time in membership order. */
export async function withMembers(topics: TopicRepository, scope: EnvironmentScope, topic: Topic): Promise<TopicWithMembers> {
  const subscriberIds: string[] = [];
  let cursor: string | null = null;
  do {
    const batch: { subscriberIds: string[]; next: string | null } = await topics.listMemberIds(scope, topic.key, cursor, MEMBER_BATCH);
    subscriberIds.push(...batch.subscriberIds);
    cursor = batch.next;
  } while (cursor);
  return { topic, subscriberIds };
}
