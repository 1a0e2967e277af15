import { Inject, Injectable } from '@nestjs/common';
import { CursorPage, EnvironmentScope, Page, PageRequest } from '@app/kernel';
import {
  SubscriberSubscriptionSearch,
  Topic,
  TopicMember,
  TopicMemberPreference,
  TopicRepository,
  TopicSearch,
  TopicSubscription,
  TopicSubscriptionChanges,
  TopicSubscriptionPreference,
  TopicSubscriptionSearch,
} from '@app/subscribers';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { empty, sql } from '../sql-statement';
import { NewRow, insertInto } from '../sql-table';
import { TopicRow, TopicSubscriptionRow, topicSubscriptions, topics } from '../tables';
import { containsPattern, cursorListPage } from '../subscribers/sql-cursor-page';

// Keys sort by code point (`C`), as the other stores compare them.
const ORDER_COLUMNS = { _id: 'id', createdAt: 'created_at', updatedAt: 'updated_at', key: 'key COLLATE "C"' } as const;

export function toTopic(row: TopicRow): Topic {
  return {
    id: row.id,
    organizationId: row.organization_id,
    environmentId: row.environment_id,
    key: row.key,
    ...(row.name !== null ? { name: row.name } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toTopicSubscription(row: TopicSubscriptionRow): TopicSubscription {
  return {
    id: row.id,
    organizationId: row.organization_id,
    environmentId: row.environment_id,
    topicId: row.topic_id,
    topicKey: row.topic_key,
    subscriberInternalId: row.subscriber_internal_id,
    subscriberId: row.subscriber_id,
    ...(row.name !== null ? { name: row.name } : {}),
    ...(row.preferences !== null ? { preferences: row.preferences } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Memberships are found through the topic's current id, so rows of a deleted topic never resurface. */
const topicIdOf = (scope: EnvironmentScope, key: string) => sql`(SELECT id FROM topics WHERE environment_id = ${scope.environmentId} AND key = ${key})`;

const toRow = (t: Topic): NewRow<typeof topics> => ({
  id: t.id,
  organization_id: t.organizationId,
  environment_id: t.environmentId,
  key: t.key,
  name: t.name ?? null,
  created_at: t.createdAt,
  updated_at: t.updatedAt,
});

@Injectable()
export class SqlTopicRepository implements TopicRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async upsert(t: Topic): Promise<{ topic: Topic; created: boolean }> {
    const [row] = await this.sql.query<TopicRow & { inserted: boolean }>(
      sql`${insertInto(topics, [toRow(t)])}
          ON CONFLICT (environment_id, key) DO UPDATE SET
            name = COALESCE(EXCLUDED.name, topics.name),
            updated_at = CASE WHEN EXCLUDED.name IS NULL THEN topics.updated_at ELSE EXCLUDED.updated_at END
          RETURNING *, (xmax = 0) AS inserted`,
    );
    return { topic: toTopic(row), created: row.inserted === true };
  }

  async insert(t: Topic): Promise<boolean> {
    const rows = await this.sql.query(sql`${insertInto(topics, [toRow(t)])} ON CONFLICT (environment_id, key) DO NOTHING RETURNING id`);
    return rows.length === 1;
  }

  async findByKey(scope: EnvironmentScope, key: string): Promise<Topic | null> {
    const [row] = await this.sql.query<TopicRow>(sql`SELECT * FROM topics WHERE environment_id = ${scope.environmentId} AND key = ${key}`);
    return row ? toTopic(row) : null;
  }

  async rename(scope: EnvironmentScope, key: string, name: string, now: Date): Promise<Topic | null> {
    const [row] = await this.sql.query<TopicRow>(
      sql`UPDATE topics SET name = ${name}, updated_at = ${now} WHERE environment_id = ${scope.environmentId} AND key = ${key} RETURNING *`,
    );
    return row ? toTopic(row) : null;
  }

  async delete(scope: EnvironmentScope, key: string): Promise<boolean> {
    // One statement: the topic and its memberships go together.
    const [{ count }] = await this.sql.query<{ count: number }>(
      sql`WITH deleted AS (DELETE FROM topics WHERE environment_id = ${scope.environmentId} AND key = ${key} RETURNING id),
               memberships AS (DELETE FROM topic_subscriptions WHERE topic_id IN (SELECT id FROM deleted))
          SELECT COUNT(*)::int AS count FROM deleted`,
    );
    return count > 0;
  }

  search(scope: EnvironmentScope, search: TopicSearch): Promise<CursorPage<Topic>> {
    const { filter } = search;
    return cursorListPage(
      this.sql,
      {
        table: 'topics',
        scope,
        orderColumn: ORDER_COLUMNS[search.orderBy],
        request: search,
        where: [
          ...(filter.key ? [sql`key ILIKE ${containsPattern(filter.key)} ESCAPE '\\'`] : []),
          ...(filter.name ? [sql`name ILIKE ${containsPattern(filter.name)} ESCAPE '\\'`] : []),
        ],
      },
      toTopic,
    );
  }

  async list(scope: EnvironmentScope, { page, limit }: PageRequest, filter: { key?: string }): Promise<Page<Topic>> {
    const where = sql`environment_id = ${scope.environmentId}${filter.key !== undefined ? sql` AND key = ${filter.key}` : empty}`;
    const [{ count }] = await this.sql.query<{ count: number }>(sql`SELECT COUNT(*)::int AS count FROM topics WHERE ${where}`);
    const rows = await this.sql.query<TopicRow>(sql`SELECT * FROM topics WHERE ${where} ORDER BY id LIMIT ${limit} OFFSET ${page * limit}`);
    return { items: rows.map(toTopic), totalCount: Number(count) };
  }

  async addSubscriptions(topic: Topic, members: TopicMember[], now: Date, newId: () => string): Promise<TopicSubscription[]> {
    if (members.length === 0) return [];
    const rows = members.map((m): NewRow<typeof topicSubscriptions> => ({
      id: newId(),
      organization_id: topic.organizationId,
      environment_id: topic.environmentId,
      topic_id: topic.id,
      topic_key: topic.key,
      subscriber_internal_id: m.subscriberInternalId,
      subscriber_id: m.subscriberId,
      created_at: now,
      updated_at: now,
    }));
    await this.sql.query(sql`${insertInto(topicSubscriptions, rows)} ON CONFLICT (topic_id, subscriber_id) DO NOTHING`);
    const stored = await this.sql.query<TopicSubscriptionRow>(
      sql`SELECT * FROM topic_subscriptions WHERE topic_id = ${topic.id} AND subscriber_id = ANY(${members.map((m) => m.subscriberId)}::text[])`,
    );
    const bySubscriber = new Map(stored.map((row) => [row.subscriber_id, toTopicSubscription(row)]));
    return members.map((m) => bySubscriber.get(m.subscriberId)).filter((s): s is TopicSubscription => s !== undefined);
  }

  async removeSubscriptions(scope: EnvironmentScope, topicKey: string, subscriberIds: string[]): Promise<TopicSubscription[]> {
    if (subscriberIds.length === 0) return [];
    const rows = await this.sql.query<TopicSubscriptionRow>(
      sql`DELETE FROM topic_subscriptions WHERE topic_id = ${topicIdOf(scope, topicKey)} AND subscriber_id = ANY(${subscriberIds}::text[]) RETURNING *`,
    );
    const bySubscriber = new Map(rows.map((row) => [row.subscriber_id, toTopicSubscription(row)]));
    return subscriberIds.map((id) => bySubscriber.get(id)).filter((s): s is TopicSubscription => s !== undefined);
  }

  listSubscriptions(scope: EnvironmentScope, topicKey: string, search: TopicSubscriptionSearch): Promise<CursorPage<TopicSubscription>> {
    return cursorListPage(
      this.sql,
      {
        table: 'topic_subscriptions',
        scope,
        orderColumn: ORDER_COLUMNS[search.orderBy],
        request: search,
        where: [sql`topic_id = ${topicIdOf(scope, topicKey)}`, ...(search.subscriberId ? [sql`subscriber_id = ${search.subscriberId}`] : [])],
      },
      toTopicSubscription,
    );
  }

  listSubscriptionsOfSubscriber(scope: EnvironmentScope, subscriberId: string, search: SubscriberSubscriptionSearch): Promise<CursorPage<TopicSubscription>> {
    return cursorListPage(
      this.sql,
      {
        table: 'topic_subscriptions',
        scope,
        orderColumn: ORDER_COLUMNS[search.orderBy],
        request: search,
        where: [
          sql`subscriber_id = ${subscriberId}`,
          // Only memberships of topics that exist now, as listSubscriptions finds them.
          sql`topic_id IN (SELECT id FROM topics WHERE environment_id = ${scope.environmentId}${search.topicKey !== undefined ? sql` AND key = ${search.topicKey}` : empty})`,
        ],
      },
      toTopicSubscription,
    );
  }

  async findByKeys(scope: EnvironmentScope, keys: string[]): Promise<Topic[]> {
    if (keys.length === 0) return [];
    const rows = await this.sql.query<TopicRow>(
      sql`SELECT * FROM topics WHERE environment_id = ${scope.environmentId} AND key = ANY(${[...new Set(keys)]}::text[])`,
    );
    return rows.map(toTopic);
  }

  async updateSubscription(
    scope: EnvironmentScope,
    topicKey: string,
    subscriberId: string,
    changes: TopicSubscriptionChanges,
    now: Date,
  ): Promise<TopicSubscription | null> {
    // No preferences left is SQL NULL, never a JSON null, which the member pages could not read as a list.
    const preferences = changes.preferences?.length ? JSON.stringify(changes.preferences) : null;
    const [row] = await this.sql.query<TopicSubscriptionRow>(
      sql`UPDATE topic_subscriptions SET
            name = CASE WHEN ${changes.name !== undefined}::boolean THEN ${changes.name ?? null} ELSE name END,
            preferences = CASE WHEN ${changes.preferences !== undefined}::boolean THEN ${preferences}::jsonb ELSE preferences END,
            updated_at = ${now}
          WHERE topic_id = ${topicIdOf(scope, topicKey)} AND subscriber_id = ${subscriberId} RETURNING *`,
    );
    return row ? toTopicSubscription(row) : null;
  }

  async listMemberIds(
    scope: EnvironmentScope,
    topicKey: string,
    afterCursor: string | null,
    limit: number,
  ): Promise<{ subscriberIds: string[]; next: string | null }> {
    const batch = await this.membersPage(scope, topicKey, null, afterCursor, limit);
    return { subscriberIds: batch.members.map((m) => m.subscriberId), next: batch.next };
  }

  listMembersFor(
    scope: EnvironmentScope,
    topicKey: string,
    workflowId: string,
    afterCursor: string | null,
    limit: number,
  ): Promise<{ members: TopicMemberPreference[]; next: string | null }> {
    return this.membersPage(scope, topicKey, workflowId, afterCursor, limit);
  }

  // The workflow's entry is picked out of the stored preferences in the same statement: no round trip per page.
  // A JSON null stored by an earlier version reads as no preferences.
  private async membersPage(
    scope: EnvironmentScope,
    topicKey: string,
    workflowId: string | null,
    afterCursor: string | null,
    limit: number,
  ): Promise<{ members: TopicMemberPreference[]; next: string | null }> {
    const rows = await this.sql.query<Pick<TopicSubscriptionRow, 'id' | 'subscriber_id'> & { preference: TopicSubscriptionPreference | null }>(
      sql`SELECT id, subscriber_id,
            (SELECT p FROM jsonb_array_elements(COALESCE(NULLIF(preferences, 'null'::jsonb), '[]'::jsonb)) p WHERE p->>'workflowId' = ${workflowId}::text LIMIT 1) AS preference
          FROM topic_subscriptions
          WHERE topic_id = ${topicIdOf(scope, topicKey)} AND (${afterCursor}::text IS NULL OR id > ${afterCursor}::text)
          ORDER BY id LIMIT ${limit + 1}`,
    );
    const batch = rows.slice(0, limit);
    return {
      members: batch.map((r) => ({ subscriberId: r.subscriber_id, ...(r.preference ? { preference: r.preference } : {}) })),
      next: rows.length > limit ? batch[batch.length - 1].id : null,
    };
  }

  async topicKeysOfSubscribers(scope: EnvironmentScope, subscriberIds: string[]): Promise<Map<string, string[]>> {
    const keys = new Map<string, string[]>(subscriberIds.map((id) => [id, []]));
    if (subscriberIds.length === 0) return keys;
    const rows = await this.sql.query<Pick<TopicSubscriptionRow, 'subscriber_id'> & Pick<TopicRow, 'key'>>(
      sql`SELECT s.subscriber_id, t.key FROM topic_subscriptions s JOIN topics t ON t.id = s.topic_id
          WHERE s.environment_id = ${scope.environmentId} AND s.subscriber_id = ANY(${subscriberIds}::text[]) ORDER BY t.key`,
    );
    for (const row of rows) keys.get(row.subscriber_id)?.push(row.key);
    return keys;
  }

  async removeSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<void> {
    await this.sql.query(sql`DELETE FROM topic_subscriptions WHERE environment_id = ${scope.environmentId} AND subscriber_id = ${subscriberId}`);
  }
}
