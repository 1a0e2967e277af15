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
import { containsPattern, cursorListPage } from '../subscribers/sql-cursor-page';

// Keys sort by code point (`C`), as the other stores compare them.
const ORDER_COLUMNS = { _id: 'id', createdAt: 'created_at', updatedAt: 'updated_at', key: 'key COLLATE "C"' } as const;

export function toTopic(row: any): Topic {
  return {
    id: row.id,
    organizationId: row.organization_id,
    environmentId: row.environment_id,
    key: row.key,
    ...(row.name !== null && row.name !== undefined ? { name: row.name } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toTopicSubscription(row: any): TopicSubscription {
  return {
    id: row.id,
    organizationId: row.organization_id,
    environmentId: row.environment_id,
    topicId: row.topic_id,
    topicKey: row.topic_key,
    subscriberInternalId: row.subscriber_internal_id,
    subscriberId: row.subscriber_id,
    ...(row.name !== null && row.name !== undefined ? { name: row.name } : {}),
    ...(row.preferences !== null && row.preferences !== undefined ? { preferences: row.preferences } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Memberships are found through the topic's current id, so rows of a deleted topic never resurface. */
const topicIdOf = (envParam: string, keyParam: string) => `(SELECT id FROM topics WHERE environment_id = ${envParam} AND key = ${keyParam})`;

@Injectable()
export class SqlTopicRepository implements TopicRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async upsert(t: Topic): Promise<{ topic: Topic; created: boolean }> {
    const [row] = await this.sql.query(
      `INSERT INTO topics (id, organization_id, environment_id, key, name, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (environment_id, key) DO UPDATE SET
         name = COALESCE(EXCLUDED.name, topics.name),
         updated_at = CASE WHEN EXCLUDED.name IS NULL THEN topics.updated_at ELSE EXCLUDED.updated_at END
       RETURNING *, (xmax = 0) AS inserted`,
      [t.id, t.organizationId, t.environmentId, t.key, t.name ?? null, t.createdAt, t.updatedAt],
    );
    return { topic: toTopic(row), created: row.inserted === true };
  }

  async insert(t: Topic): Promise<boolean> {
    const rows = await this.sql.query(
      `INSERT INTO topics (id, organization_id, environment_id, key, name, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (environment_id, key) DO NOTHING RETURNING id`,
      [t.id, t.organizationId, t.environmentId, t.key, t.name ?? null, t.createdAt, t.updatedAt],
    );
    return rows.length === 1;
  }

  async findByKey(scope: EnvironmentScope, key: string): Promise<Topic | null> {
    const [row] = await this.sql.query('SELECT * FROM topics WHERE environment_id = $1 AND key = $2', [scope.environmentId, key]);
    return row ? toTopic(row) : null;
  }

  async rename(scope: EnvironmentScope, key: string, name: string, now: Date): Promise<Topic | null> {
    const [row] = await this.sql.query('UPDATE topics SET name = $3, updated_at = $4 WHERE environment_id = $1 AND key = $2 RETURNING *', [
      scope.environmentId,
      key,
      name,
      now,
    ]);
    return row ? toTopic(row) : null;
  }

  async delete(scope: EnvironmentScope, key: string): Promise<boolean> {
    // One statement: the topic and its memberships go together.
    const [{ count }] = await this.sql.query<{ count: number }>(
      `WITH deleted AS (DELETE FROM topics WHERE environment_id = $1 AND key = $2 RETURNING id),
            memberships AS (DELETE FROM topic_subscriptions WHERE topic_id IN (SELECT id FROM deleted))
       SELECT COUNT(*)::int AS count FROM deleted`,
      [scope.environmentId, key],
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
        where: (param) => [
          ...(filter.key ? [`key ILIKE ${param(containsPattern(filter.key))} ESCAPE '\\'`] : []),
          ...(filter.name ? [`name ILIKE ${param(containsPattern(filter.name))} ESCAPE '\\'`] : []),
        ],
      },
      toTopic,
    );
  }

  async list(scope: EnvironmentScope, { page, limit }: PageRequest, filter: { key?: string }): Promise<Page<Topic>> {
    const params: unknown[] = [scope.environmentId];
    const where = `environment_id = $1${filter.key !== undefined ? ` AND key = $${params.push(filter.key)}` : ''}`;
    const [{ count }] = await this.sql.query<{ count: number }>(`SELECT COUNT(*)::int AS count FROM topics WHERE ${where}`, params);
    const rows = await this.sql.query(`SELECT * FROM topics WHERE ${where} ORDER BY id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [
      ...params,
      limit,
      page * limit,
    ]);
    return { items: rows.map(toTopic), totalCount: Number(count) };
  }

  async addSubscriptions(topic: Topic, members: TopicMember[], now: Date, newId: () => string): Promise<TopicSubscription[]> {
    if (members.length === 0) return [];
    const params: unknown[] = [topic.organizationId, topic.environmentId, topic.id, topic.key, now];
    const rows = members.map(
      (m) => `(${[newId(), m.subscriberInternalId, m.subscriberId].map((v) => `$${params.push(v)}`).join(', ')}, $1, $2, $3, $4, $5, $5)`,
    );
    await this.sql.query(
      `INSERT INTO topic_subscriptions
         (id, subscriber_internal_id, subscriber_id, organization_id, environment_id, topic_id, topic_key, created_at, updated_at)
       VALUES ${rows.join(', ')}
       ON CONFLICT (topic_id, subscriber_id) DO NOTHING`,
      params,
    );
    const stored = await this.sql.query('SELECT * FROM topic_subscriptions WHERE topic_id = $1 AND subscriber_id = ANY($2::text[])', [
      topic.id,
      members.map((m) => m.subscriberId),
    ]);
    const bySubscriber = new Map(stored.map((row) => [row.subscriber_id as string, toTopicSubscription(row)]));
    return members.map((m) => bySubscriber.get(m.subscriberId)).filter((s): s is TopicSubscription => s !== undefined);
  }

  async removeSubscriptions(scope: EnvironmentScope, topicKey: string, subscriberIds: string[]): Promise<TopicSubscription[]> {
    if (subscriberIds.length === 0) return [];
    const rows = await this.sql.query(
      `DELETE FROM topic_subscriptions WHERE topic_id = ${topicIdOf('$1', '$2')} AND subscriber_id = ANY($3::text[]) RETURNING *`,
      [scope.environmentId, topicKey, subscriberIds],
    );
    const bySubscriber = new Map(rows.map((row) => [row.subscriber_id as string, toTopicSubscription(row)]));
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
        where: (param) => [`topic_id = ${topicIdOf('$1', param(topicKey))}`, ...(search.subscriberId ? [`subscriber_id = ${param(search.subscriberId)}`] : [])],
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
        where: (param) => [
          `subscriber_id = ${param(subscriberId)}`,
          // Only memberships of topics that exist now, as listSubscriptions finds them.
          `topic_id IN (SELECT id FROM topics WHERE environment_id = $1${search.topicKey !== undefined ? ` AND key = ${param(search.topicKey)}` : ''})`,
        ],
      },
      toTopicSubscription,
    );
  }

  async findByKeys(scope: EnvironmentScope, keys: string[]): Promise<Topic[]> {
    if (keys.length === 0) return [];
    const rows = await this.sql.query('SELECT * FROM topics WHERE environment_id = $1 AND key = ANY($2::text[])', [scope.environmentId, [...new Set(keys)]]);
    return rows.map(toTopic);
  }

  async updateSubscription(
    scope: EnvironmentScope,
    topicKey: string,
    subscriberId: string,
    changes: TopicSubscriptionChanges,
    now: Date,
  ): Promise<TopicSubscription | null> {
    const preferences = changes.preferences === undefined ? null : JSON.stringify(changes.preferences.length ? changes.preferences : null);
    const [row] = await this.sql.query(
      `UPDATE topic_subscriptions SET
         name = CASE WHEN $4::boolean THEN $5 ELSE name END,
         preferences = CASE WHEN $6::boolean THEN $7::jsonb ELSE preferences END,
         updated_at = $8
       WHERE topic_id = ${topicIdOf('$1', '$2')} AND subscriber_id = $3 RETURNING *`,
      [scope.environmentId, topicKey, subscriberId, changes.name !== undefined, changes.name ?? null, changes.preferences !== undefined, preferences, now],
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
  private async membersPage(
    scope: EnvironmentScope,
    topicKey: string,
    workflowId: string | null,
    afterCursor: string | null,
    limit: number,
  ): Promise<{ members: TopicMemberPreference[]; next: string | null }> {
    const rows = await this.sql.query<{ id: string; subscriber_id: string; preference: TopicSubscriptionPreference | null }>(
      `SELECT id, subscriber_id,
         (SELECT p FROM jsonb_array_elements(COALESCE(preferences, '[]'::jsonb)) p WHERE p->>'workflowId' = $5::text LIMIT 1) AS preference
       FROM topic_subscriptions
       WHERE topic_id = ${topicIdOf('$1', '$2')} AND ($3::text IS NULL OR id > $3::text)
       ORDER BY id LIMIT $4`,
      [scope.environmentId, topicKey, afterCursor, limit + 1, workflowId],
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
    const rows = await this.sql.query<{ subscriber_id: string; key: string }>(
      `SELECT s.subscriber_id, t.key FROM topic_subscriptions s JOIN topics t ON t.id = s.topic_id
       WHERE s.environment_id = $1 AND s.subscriber_id = ANY($2::text[]) ORDER BY t.key`,
      [scope.environmentId, subscriberIds],
    );
    for (const row of rows) keys.get(row.subscriber_id)?.push(row.key);
    return keys;
  }

  async removeSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<void> {
    await this.sql.query('DELETE FROM topic_subscriptions WHERE environment_id = $1 AND subscriber_id = $2', [scope.environmentId, subscriberId]);
  }
}
