import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { Message } from '@app/delivery';
import { BadgeCounts, InboxChange, InboxChanged, InboxFilter, InboxItem, InboxPageRequest, InboxRepository, InboxState, sortedContextKeys } from '@app/inbox';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { toMessage } from '../delivery/sql-message.repository';
import { MessageRow } from '../tables';

const SEVERITY = `COALESCE(NULLIF((SELECT n.severity FROM notifications n WHERE n.id = m.notification_id), ''), 'none')`;

/** The WHERE of one subscriber's in-app messages under a filter; `params` grows with the values. */
function feedWhere(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter, params: unknown[]): string {
  params.push(scope.environmentId, scope.organizationId, subscriberId);
  const [environment, organization, subscriber] = [params.length - 2, params.length - 1, params.length].map((n) => `$${n}`);
  const where = [`m.environment_id = ${environment}`, `m.organization_id = ${organization}`, `m.subscriber_id = ${subscriber}`, `m.channel = 'in_app'`];
  const add = (sql: (placeholder: string) => string, value: unknown) => where.push(sql(`$${params.push(value)}`));
  if (filter.tags?.length) add((p) => `m.tags ?| ${p}::text[]`, filter.tags);
  for (const field of ['read', 'seen', 'archived'] as const) {
    if (filter[field] !== undefined) add((p) => `m.${field} = ${p}`, filter[field]);
  }
  where.push(filter.snoozed ? 'm.snoozed_until IS NOT NULL' : 'm.snoozed_until IS NULL');
  if (filter.data && Object.keys(filter.data).length) add((p) => `m.payload @> ${p}::jsonb`, JSON.stringify(filter.data));
  if (filter.severity?.length) add((p) => `${SEVERITY} = ANY(${p}::text[])`, filter.severity);
  if (filter.createdGte) add((p) => `m.created_at >= ${p}::timestamptz`, filter.createdGte);
  if (filter.createdLte) add((p) => `m.created_at <= ${p}::timestamptz`, filter.createdLte);
  if (filter.ids) add((p) => `m.id = ANY(${p}::text[])`, filter.ids);
  // A notification records its contexts' keys sorted: equal lists are the same set.
  if (filter.contextKeys?.length) {
    add(
      (p) =>
        `m.notification_id IN (SELECT n.id FROM notifications n WHERE n.environment_id = ${environment} AND n.subscriber_id = ${subscriber} AND n.context_keys = ${p}::jsonb)`,
      JSON.stringify(sortedContextKeys(filter.contextKeys)),
    );
  }
  return where.join(' AND ');
}

/** The SET of a change; `params` grows with the values. */
function changeSet(change: InboxChange, params: unknown[]): string {
  const at = `$${params.push(change.at)}`;
  const set = [`updated_at = ${at}`];
  if (change.read === true) set.push('read = true', `last_read_date = ${at}`);
  if (change.read === false) set.push('read = false');
  if (change.seen === true) set.push('seen = true', `last_seen_date = ${at}`, `first_seen_date = COALESCE(first_seen_date, ${at})`);
  if (change.seen === false) set.push('seen = false');
  if (change.archived === true) set.push('archived = true', `archived_at = ${at}`);
  if (change.archived === false) set.push('archived = false', 'archived_at = NULL');
  if (change.snoozedUntil !== undefined) set.push(`snoozed_until = $${params.push(change.snoozedUntil)}::timestamptz`);
  if (change.cta !== undefined) set.push(`cta = $${params.push(JSON.stringify(change.cta))}::jsonb`);
  return set.join(', ');
}

const toItem = (row: any): InboxItem => ({ message: toMessage(row), severity: row.inbox_severity || 'none' });

/**
 * An UPDATE of the messages under `where` that also answers each one's state before it: the rows
 * are locked as they are read, so a concurrent change waits and then sees this one's result.
 */
const changing = (where: string, set: string, returning: string) =>
  `WITH before AS (
     SELECT m.id, m.read AS before_read, m.seen AS before_seen, m.archived AS before_archived, m.snoozed_until AS before_snoozed_until
     FROM messages m WHERE ${where} FOR UPDATE)
   UPDATE messages m SET ${set} FROM before b WHERE m.id = b.id
   RETURNING ${returning}, b.before_read, b.before_seen, b.before_archived, b.before_snoozed_until`;

const stateBefore = (row: any): InboxState => ({
  read: row.before_read,
  seen: row.before_seen,
  archived: row.before_archived,
  snoozedUntil: row.before_snoozed_until ? new Date(row.before_snoozed_until) : undefined,
});

/** InboxRepository on PostgreSQL / PGlite: the messages table, read by subscriber, each change one statement. */
@Injectable()
export class SqlInboxRepository implements InboxRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async list(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter, page: InboxPageRequest): Promise<{ items: InboxItem[]; hasMore: boolean }> {
    const params: unknown[] = [];
    let where = feedWhere(scope, subscriberId, filter, params);
    if (page.after !== undefined) {
      const p = `$${params.push(page.after)}`;
      // an unknown cursor compares with NULL: an empty page
      where += ` AND (m.created_at, m.id) < (SELECT c.created_at, c.id FROM messages c WHERE c.id = ${p} AND c.environment_id = $1 AND c.subscriber_id = $3)`;
    }
    const rows = await this.sql.query(
      `SELECT m.*, ${SEVERITY} AS inbox_severity FROM messages m WHERE ${where}
       ORDER BY m.created_at DESC, m.id DESC LIMIT $${params.push(page.limit + 1)} OFFSET $${params.push(page.offset ?? 0)}`,
      params,
    );
    return { items: rows.slice(0, page.limit).map(toItem), hasMore: rows.length > page.limit };
  }

  async count(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter): Promise<number> {
    const params: unknown[] = [];
    const [row] = await this.sql.query<{ total: string | number }>(
      `SELECT COUNT(*) AS total FROM messages m WHERE ${feedWhere(scope, subscriberId, filter, params)}`,
      params,
    );
    return Number(row.total);
  }

  async find(scope: EnvironmentScope, subscriberId: string, id: string): Promise<InboxItem | null> {
    const params: unknown[] = [];
    const where = feedWhere(scope, subscriberId, { ids: [id] }, params);
    // a snoozed message is found too
    const [row] = await this.sql.query(`SELECT m.*, ${SEVERITY} AS inbox_severity FROM messages m WHERE ${anySnooze(where)}`, params);
    return row ? toItem(row) : null;
  }

  async findMany(scope: EnvironmentScope, ids: string[]): Promise<InboxItem[]> {
    if (!ids.length) return [];
    const rows = await this.sql.query(
      `SELECT m.*, ${SEVERITY} AS inbox_severity FROM messages m
       WHERE m.environment_id = $1 AND m.organization_id = $2 AND m.id = ANY($3::text[]) AND m.channel = 'in_app'`,
      [scope.environmentId, scope.organizationId, ids],
    );
    return rows.map(toItem);
  }

  async badgeCounts(scope: EnvironmentScope, subscriberIds: string[]): Promise<Map<string, BadgeCounts>> {
    const counts = new Map<string, BadgeCounts>();
    if (!subscriberIds.length) return counts;
    const rows = await this.sql.query<{ subscriber_id: string; severity: string; unread: number; unseen: number }>(
      `SELECT m.subscriber_id, ${SEVERITY} AS severity, (count(*) FILTER (WHERE NOT m.read))::int AS unread, (count(*) FILTER (WHERE NOT m.seen))::int AS unseen
       FROM messages m
       WHERE m.environment_id = $1 AND m.organization_id = $2 AND m.subscriber_id = ANY($3::text[]) AND m.channel = 'in_app'
         AND NOT m.archived AND m.snoozed_until IS NULL
       GROUP BY 1, 2`,
      [scope.environmentId, scope.organizationId, subscriberIds],
    );
    for (const row of rows) {
      if (Number(row.unread) === 0 && Number(row.unseen) === 0) continue;
      const entry = counts.get(row.subscriber_id) ?? { unread: {}, unseen: 0 };
      if (Number(row.unread) > 0) entry.unread[row.severity] = Number(row.unread);
      entry.unseen += Number(row.unseen);
      counts.set(row.subscriber_id, entry);
    }
    return counts;
  }

  async change(scope: EnvironmentScope, subscriberId: string, id: string, change: InboxChange): Promise<(InboxItem & Pick<InboxChanged, 'before'>) | null> {
    const params: unknown[] = [];
    const where = anySnooze(feedWhere(scope, subscriberId, { ids: [id] }, params));
    const [row] = await this.sql.query(changing(where, changeSet(change, params), `m.*, ${SEVERITY} AS inbox_severity`), params);
    return row ? { ...toItem(row), before: stateBefore(row) } : null;
  }

  async changeMany(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter, change: InboxChange): Promise<InboxChanged[]> {
    const params: unknown[] = [];
    const where = feedWhere(scope, subscriberId, filter, params);
    const rows = await this.sql.query<MessageRow>(changing(where, changeSet(change, params), 'm.*'), params);
    return rows.map((row) => ({ message: toMessage(row), before: stateBefore(row) }));
  }

  async delete(scope: EnvironmentScope, subscriberId: string, id: string): Promise<Message | null> {
    const params: unknown[] = [];
    const where = anySnooze(feedWhere(scope, subscriberId, { ids: [id] }, params));
    const [row] = await this.sql.query<MessageRow>(`DELETE FROM messages m WHERE ${where} RETURNING m.*`, params);
    return row ? toMessage(row) : null;
  }

  async deleteMany(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter): Promise<Message[]> {
    const params: unknown[] = [];
    return (await this.sql.query<MessageRow>(`DELETE FROM messages m WHERE ${feedWhere(scope, subscriberId, filter, params)} RETURNING m.*`, params)).map(
      toMessage,
    );
  }

  async wakeSnoozed(now: Date, limit: number): Promise<Message[]> {
    // SKIP LOCKED: concurrent sweeps take disjoint rows; the woken message counts as delivered again now
    const rows = await this.sql.query<MessageRow>(
      `UPDATE messages SET snoozed_until = NULL, updated_at = $1, delivered_at = delivered_at || jsonb_build_array($3::text)
       WHERE id IN (SELECT id FROM messages WHERE snoozed_until <= $1 ORDER BY snoozed_until LIMIT $2 FOR UPDATE SKIP LOCKED)
       AND snoozed_until <= $1 RETURNING *`,
      [now, limit, now.toISOString()],
    );
    return rows.map(toMessage);
  }

  async setPresence(scope: EnvironmentScope, subscriberId: string, online: boolean, at: Date): Promise<void> {
    await this.sql.query('UPDATE subscribers SET is_online = $4, last_online_at = $5 WHERE environment_id = $1 AND organization_id = $2 AND id = $3', [
      scope.environmentId,
      scope.organizationId,
      subscriberId,
      online,
      at,
    ]);
  }
}

/** Single-message operations reach a snoozed message too (unsnooze, read it from a snoozed tab). */
function anySnooze(where: string): string {
  return where.replace(' AND m.snoozed_until IS NULL', '');
}
