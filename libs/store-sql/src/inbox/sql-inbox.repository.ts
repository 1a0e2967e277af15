import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { Message } from '@app/delivery';
import { BadgeCounts, InboxChange, InboxChanged, InboxFilter, InboxItem, InboxPageRequest, InboxRepository, InboxState, sortedContextKeys } from '@app/inbox';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { Sql, empty, join, param, raw, sql } from '../sql-statement';
import { toMessage } from '../delivery/sql-message.repository';
import { MessageRow } from '../tables';

const SEVERITY = raw(`COALESCE(NULLIF((SELECT n.severity FROM notifications n WHERE n.id = m.notification_id), ''), 'none')`);

/** A message with its notification's severity (SEVERITY). */
type InboxRow = MessageRow & { inbox_severity: string };

/** A changed message's state before the change (`changing`). */
interface StateBeforeRow {
  before_read: boolean;
  before_seen: boolean;
  before_archived: boolean;
  before_snoozed_until: Date | null;
}

/**
 * The WHERE of one subscriber's in-app messages under a filter. `anySnooze`: a snoozed message is
 * found too unless the filter asks for snoozed ones (single-message operations: unsnooze, read it from a snoozed tab).
 */
function feedWhere(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter, anySnooze = false): Sql {
  const where = [
    sql`m.environment_id = ${scope.environmentId}`,
    sql`m.organization_id = ${scope.organizationId}`,
    sql`m.subscriber_id = ${subscriberId}`,
    raw(`m.channel = 'in_app'`),
  ];
  if (filter.tags?.length) where.push(sql`m.tags ?| ${filter.tags}::text[]`);
  for (const field of ['read', 'seen', 'archived'] as const) {
    if (filter[field] !== undefined) where.push(sql`m.${raw(field)} = ${filter[field]}`);
  }
  if (filter.snoozed) where.push(raw('m.snoozed_until IS NOT NULL'));
  else if (!anySnooze) where.push(raw('m.snoozed_until IS NULL'));
  if (filter.data && Object.keys(filter.data).length) where.push(sql`m.payload @> ${JSON.stringify(filter.data)}::jsonb`);
  if (filter.severity?.length) where.push(sql`${SEVERITY} = ANY(${filter.severity}::text[])`);
  if (filter.createdGte) where.push(sql`m.created_at >= ${filter.createdGte}::timestamptz`);
  if (filter.createdLte) where.push(sql`m.created_at <= ${filter.createdLte}::timestamptz`);
  if (filter.ids) where.push(sql`m.id = ANY(${filter.ids}::text[])`);
  // A notification records its contexts' keys sorted: equal lists are the same set.
  if (filter.contextKeys?.length) {
    where.push(
      sql`m.notification_id IN (SELECT n.id FROM notifications n WHERE n.environment_id = ${scope.environmentId} AND n.subscriber_id = ${subscriberId} AND n.context_keys = ${JSON.stringify(sortedContextKeys(filter.contextKeys))}::jsonb)`,
    );
  }
  return join(where, ' AND ');
}

/** The SET of a change. */
function changeSet(change: InboxChange): Sql {
  const at = change.at;
  const set = [sql`updated_at = ${at}`];
  if (change.read === true) set.push(raw('read = true'), sql`last_read_date = ${at}`);
  if (change.read === false) set.push(raw('read = false'));
  if (change.seen === true) set.push(raw('seen = true'), sql`last_seen_date = ${at}`, sql`first_seen_date = COALESCE(first_seen_date, ${at})`);
  if (change.seen === false) set.push(raw('seen = false'));
  if (change.archived === true) set.push(raw('archived = true'), sql`archived_at = ${at}`);
  if (change.archived === false) set.push(raw('archived = false'), raw('archived_at = NULL'));
  if (change.snoozedUntil !== undefined) set.push(sql`snoozed_until = ${change.snoozedUntil}::timestamptz`);
  if (change.cta !== undefined) set.push(sql`cta = ${JSON.stringify(change.cta)}::jsonb`);
  return join(set);
}

const toItem = (row: InboxRow): InboxItem => ({ message: toMessage(row), severity: row.inbox_severity || 'none' });

/**
 * An UPDATE of the messages under `where` that also answers each one's state before it: the rows
 * are locked as they are read, so a concurrent change waits and then sees this one's result.
 */
const changing = (where: Sql, set: Sql, returning: Sql) =>
  sql`WITH before AS (
     SELECT m.id, m.read AS before_read, m.seen AS before_seen, m.archived AS before_archived, m.snoozed_until AS before_snoozed_until
     FROM messages m WHERE ${where} FOR UPDATE)
   UPDATE messages m SET ${set} FROM before b WHERE m.id = b.id
   RETURNING ${returning}, b.before_read, b.before_seen, b.before_archived, b.before_snoozed_until`;

const stateBefore = (row: StateBeforeRow): InboxState => ({
  read: row.before_read,
  seen: row.before_seen,
  archived: row.before_archived,
  snoozedUntil: row.before_snoozed_until ? new Date(row.before_snoozed_until) : undefined,
});

// SKIP LOCKED: concurrent sweeps take disjoint rows; the woken message counts as delivered again now
const WAKE_SNOOZED = sql`UPDATE messages SET snoozed_until = NULL, updated_at = ${param('now')}, delivered_at = delivered_at || jsonb_build_array(${param('nowText')}::text)
       WHERE id IN (SELECT id FROM messages WHERE snoozed_until <= ${param('now')} ORDER BY snoozed_until LIMIT ${param('limit')} FOR UPDATE SKIP LOCKED)
       AND snoozed_until <= ${param('now')} RETURNING *`;

/** InboxRepository on PostgreSQL / PGlite: the messages table, read by subscriber, each change one statement. */
@Injectable()
export class SqlInboxRepository implements InboxRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async list(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter, page: InboxPageRequest): Promise<{ items: InboxItem[]; hasMore: boolean }> {
    // an unknown cursor compares with NULL: an empty page
    const after =
      page.after === undefined
        ? empty
        : sql` AND (m.created_at, m.id) < (SELECT c.created_at, c.id FROM messages c WHERE c.id = ${page.after} AND c.environment_id = ${scope.environmentId} AND c.subscriber_id = ${subscriberId})`;
    const rows = await this.sql.query<InboxRow>(
      sql`SELECT m.*, ${SEVERITY} AS inbox_severity FROM messages m WHERE ${feedWhere(scope, subscriberId, filter)}${after}
       ORDER BY m.created_at DESC, m.id DESC LIMIT ${page.limit + 1} OFFSET ${page.offset ?? 0}`,
    );
    return { items: rows.slice(0, page.limit).map(toItem), hasMore: rows.length > page.limit };
  }

  async count(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter): Promise<number> {
    const [row] = await this.sql.query<{ total: string | number }>(
      sql`SELECT COUNT(*) AS total FROM messages m WHERE ${feedWhere(scope, subscriberId, filter)}`,
    );
    return Number(row.total);
  }

  async find(scope: EnvironmentScope, subscriberId: string, id: string): Promise<InboxItem | null> {
    const where = feedWhere(scope, subscriberId, { ids: [id] }, true);
    const [row] = await this.sql.query<InboxRow>(sql`SELECT m.*, ${SEVERITY} AS inbox_severity FROM messages m WHERE ${where}`);
    return row ? toItem(row) : null;
  }

  async findMany(scope: EnvironmentScope, ids: string[]): Promise<InboxItem[]> {
    if (!ids.length) return [];
    const rows = await this.sql.query<InboxRow>(
      sql`SELECT m.*, ${SEVERITY} AS inbox_severity FROM messages m
       WHERE m.environment_id = ${scope.environmentId} AND m.organization_id = ${scope.organizationId} AND m.id = ANY(${ids}::text[]) AND m.channel = 'in_app'`,
    );
    return rows.map(toItem);
  }

  async badgeCounts(scope: EnvironmentScope, subscriberIds: string[]): Promise<Map<string, BadgeCounts>> {
    const counts = new Map<string, BadgeCounts>();
    if (!subscriberIds.length) return counts;
    const rows = await this.sql.query<{ subscriber_id: string; severity: string; unread: number; unseen: number }>(
      sql`SELECT m.subscriber_id, ${SEVERITY} AS severity, (count(*) FILTER (WHERE NOT m.read))::int AS unread, (count(*) FILTER (WHERE NOT m.seen))::int AS unseen
       FROM messages m
       WHERE m.environment_id = ${scope.environmentId} AND m.organization_id = ${scope.organizationId} AND m.subscriber_id = ANY(${subscriberIds}::text[]) AND m.channel = 'in_app'
         AND NOT m.archived AND m.snoozed_until IS NULL
       GROUP BY 1, 2`,
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
    const where = feedWhere(scope, subscriberId, { ids: [id] }, true);
    const [row] = await this.sql.query<InboxRow & StateBeforeRow>(changing(where, changeSet(change), sql`m.*, ${SEVERITY} AS inbox_severity`));
    return row ? { ...toItem(row), before: stateBefore(row) } : null;
  }

  async changeMany(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter, change: InboxChange): Promise<InboxChanged[]> {
    const rows = await this.sql.query<MessageRow & StateBeforeRow>(changing(feedWhere(scope, subscriberId, filter), changeSet(change), raw('m.*')));
    return rows.map((row) => ({ message: toMessage(row), before: stateBefore(row) }));
  }

  async delete(scope: EnvironmentScope, subscriberId: string, id: string): Promise<Message | null> {
    const where = feedWhere(scope, subscriberId, { ids: [id] }, true);
    const [row] = await this.sql.query<MessageRow>(sql`DELETE FROM messages m WHERE ${where} RETURNING m.*`);
    return row ? toMessage(row) : null;
  }

  async deleteMany(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter): Promise<Message[]> {
    return (await this.sql.query<MessageRow>(sql`DELETE FROM messages m WHERE ${feedWhere(scope, subscriberId, filter)} RETURNING m.*`)).map(toMessage);
  }

  async wakeSnoozed(now: Date, limit: number): Promise<Message[]> {
    const rows = await this.sql.query<MessageRow>(WAKE_SNOOZED.bind({ now, nowText: now.toISOString(), limit }));
    return rows.map(toMessage);
  }

  async setPresence(scope: EnvironmentScope, subscriberId: string, online: boolean, at: Date): Promise<void> {
    await this.sql.query(
      sql`UPDATE subscribers SET is_online = ${online}, last_online_at = ${at} WHERE environment_id = ${scope.environmentId} AND organization_id = ${scope.organizationId} AND id = ${subscriberId}`,
    );
  }
}
