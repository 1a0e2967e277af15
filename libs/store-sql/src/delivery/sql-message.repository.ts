import { Inject, Injectable } from '@nestjs/common';
import { CallBatcher, Channel, EnvironmentScope, Page } from '@app/kernel';
import { Message, MessageDeliveryUpdate, MessageListQuery, MessageRepository } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { UNFINISHED_JOB_STATUSES, deleteOldest, notificationFinishedSql } from './sql-retention';
import { ColumnSpec, insertFromJsonSql, isoTime, jsonRows, setPresent } from './sql-rows';

/**
 * The columns of messages, in the order bulk inserts write them (jsonRows): those every message has first,
 * then those the delivery insert takes from the notification, those of some channels, and those set later.
 */
export const MESSAGE_COLUMNS: readonly ColumnSpec[] = [
  ['id', 'text'],
  ['notification_id', 'text'],
  ['job_id', 'text'],
  ['step_id', 'text'],
  ['channel', 'text'],
  ['provider_id', 'text'],
  ['status', 'text'],
  ['content', 'jsonb'],
  ['read', 'boolean'],
  ['seen', 'boolean'],
  ['archived', 'boolean'],
  ['delivered_at', 'jsonb'],
  ['overrides', 'jsonb'],
  ['tags', 'jsonb'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
  ['organization_id', 'text'],
  ['environment_id', 'text'],
  ['subscriber_id', 'text'],
  ['workflow_id', 'text'],
  ['template_identifier', 'text'],
  ['transaction_id', 'text'],
  ['payload', 'jsonb'],
  ['subject', 'text'],
  ['title', 'text'],
  ['cta', 'jsonb'],
  ['avatar', 'text'],
  ['actor_subscriber_id', 'text'],
  ['actor', 'jsonb'],
  ['email', 'text'],
  ['phone', 'text'],
  ['device_tokens', 'jsonb'],
  ['direct_webhook_url', 'text'],
  ['identifier', 'text'],
  ['error_id', 'text'],
  ['error_text', 'text'],
  ['last_seen_date', 'timestamptz'],
  ['last_read_date', 'timestamptz'],
  ['snoozed_until', 'timestamptz'],
  ['archived_at', 'timestamptz'],
  ['first_seen_date', 'timestamptz'],
  ['delivery_state', 'text'],
  ['delivery_state_at', 'timestamptz'],
  ['data', 'jsonb'],
];

export const toMessageRow = (m: Message): Record<string, unknown> => ({
  id: m.id,
  organization_id: m.organizationId,
  environment_id: m.environmentId,
  notification_id: m.notificationId,
  job_id: m.jobId,
  subscriber_id: m.subscriberId,
  workflow_id: m.workflowId,
  template_identifier: m.templateIdentifier,
  step_id: m.stepId,
  transaction_id: m.transactionId,
  channel: m.channel,
  provider_id: m.providerId,
  status: m.status,
  error_id: m.errorId,
  error_text: m.errorText,
  content: m.content,
  subject: m.subject,
  title: m.title,
  cta: m.cta,
  avatar: m.avatar,
  actor_subscriber_id: m.actorSubscriberId,
  actor: m.actor,
  data: m.data,
  read: m.read,
  seen: m.seen,
  archived: m.archived,
  last_seen_date: isoTime(m.lastSeenDate),
  last_read_date: isoTime(m.lastReadDate),
  snoozed_until: isoTime(m.snoozedUntil),
  archived_at: isoTime(m.archivedAt),
  first_seen_date: isoTime(m.firstSeenDate),
  delivered_at: m.deliveredAt?.map(isoTime),
  identifier: m.identifier,
  delivery_state: m.deliveryState,
  delivery_state_at: isoTime(m.deliveryStateAt),
  email: m.email,
  phone: m.phone,
  device_tokens: m.deviceTokens,
  direct_webhook_url: m.directWebhookUrl,
  payload: m.payload,
  overrides: m.overrides,
  tags: m.tags,
  created_at: isoTime(m.createdAt),
  updated_at: isoTime(m.updatedAt),
});

export function toMessage(row: any): Message {
  return setPresent<Message>(
    {
      id: row.id,
      organizationId: row.organization_id,
      environmentId: row.environment_id,
      notificationId: row.notification_id,
      jobId: row.job_id,
      subscriberId: row.subscriber_id,
      workflowId: row.workflow_id,
      templateIdentifier: row.template_identifier,
      transactionId: row.transaction_id,
      channel: row.channel,
      status: row.status,
      content: row.content,
      read: row.read,
      seen: row.seen,
      archived: row.archived,
      // jsonb keeps the dates as ISO text
      deliveredAt: (row.delivered_at ?? []).map((d: string) => new Date(d)),
      payload: row.payload,
      overrides: row.overrides,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    },
    {
      stepId: row.step_id,
      providerId: row.provider_id,
      errorId: row.error_id,
      errorText: row.error_text,
      subject: row.subject,
      title: row.title,
      cta: row.cta,
      avatar: row.avatar,
      actorSubscriberId: row.actor_subscriber_id,
      actor: row.actor,
      data: row.data,
      lastSeenDate: row.last_seen_date,
      lastReadDate: row.last_read_date,
      snoozedUntil: row.snoozed_until,
      archivedAt: row.archived_at,
      firstSeenDate: row.first_seen_date,
      identifier: row.identifier,
      deliveryState: row.delivery_state,
      deliveryStateAt: row.delivery_state_at,
      email: row.email,
      phone: row.phone,
      deviceTokens: row.device_tokens,
      directWebhookUrl: row.direct_webhook_url,
      tags: row.tags,
    },
  );
}

/** The predicate of messages_job_not_own (migration 28): the messages whose id is not their job's; the others are read by primary key. */
export const MESSAGES_NOT_BY_JOB_ID_SQL = 'job_id <> id';

/** The predicate of messages_env_subscriber_not_in_app (migration 30); a subscriber's in-app messages are in messages_inbox. */
export const MESSAGES_NOT_IN_APP_SQL = "channel <> 'in_app'";

@Injectable()
export class SqlMessageRepository implements MessageRepository {
  private readonly inserts = new CallBatcher<Message, { message: Message; created: boolean }>(async (_, messages) => {
    const inserted = await this.sql.query(`${insertFromJsonSql('messages', MESSAGE_COLUMNS, 1)} ON CONFLICT (id) DO NOTHING RETURNING id`, [
      jsonRows(messages.map(toMessageRow), MESSAGE_COLUMNS),
    ]);
    // a created row is the message as given; only the existing ones need reading
    const given = new Map(messages.map((message) => [message.id, message]));
    const created = new Map(inserted.map((row) => [row.id as string, given.get(row.id)!]));
    const missing = messages.filter((message) => !created.has(message.id)).map((message) => message.id);
    // a separate read: a row committed by a concurrent insert is visible to a new statement
    const existing = missing.length ? await this.sql.query('SELECT * FROM messages WHERE id = ANY($1::text[])', [missing]) : [];
    const found = new Map(existing.map((row) => [row.id as string, toMessage(row)]));
    return messages.map((message) => {
      const fresh = created.get(message.id);
      if (fresh) {
        created.delete(message.id); // the same id twice in one batch: the first caller created it
        found.set(message.id, fresh);
        return { message: fresh, created: true };
      }
      return { message: found.get(message.id)!, created: false };
    });
  });

  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  insertIfAbsent(message: Message): Promise<{ message: Message; created: boolean }> {
    return this.inserts.run('', message);
  }

  async updateDelivery(id: string, update: MessageDeliveryUpdate): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE messages SET status = $2,
         error_id = CASE WHEN $2 = 'sent' THEN NULL ELSE COALESCE($3, error_id) END,
         error_text = CASE WHEN $2 = 'sent' THEN NULL ELSE COALESCE($4, error_text) END,
         identifier = COALESCE($5, identifier),
         delivered_at = CASE WHEN $6::text IS NULL THEN delivered_at ELSE delivered_at || jsonb_build_array($6::text) END,
         updated_at = COALESCE($7::timestamptz, now())
       WHERE id = $1 RETURNING id`,
      [
        id,
        update.status,
        update.errorId ?? null,
        update.errorText ?? null,
        update.identifier ?? null,
        update.deliveredAt?.toISOString() ?? null,
        update.updatedAt ?? null,
      ],
    );
    return rows.length === 1;
  }

  async findById(scope: EnvironmentScope, id: string): Promise<Message | null> {
    const [row] = await this.sql.query('SELECT * FROM messages WHERE id = $1 AND environment_id = $2 AND organization_id = $3', [
      id,
      scope.environmentId,
      scope.organizationId,
    ]);
    return row ? toMessage(row) : null;
  }

  async findByProviderIdentifier(scope: EnvironmentScope, providerId: string, identifiers: string[]): Promise<Message | null> {
    if (!identifiers.length) return null;
    const [row] = await this.sql.query(
      `SELECT * FROM messages WHERE environment_id = $1 AND organization_id = $2 AND provider_id = $3 AND identifier = ANY($4::text[])
       ORDER BY created_at DESC, id DESC LIMIT 1`,
      [scope.environmentId, scope.organizationId, providerId, identifiers],
    );
    return row ? toMessage(row) : null;
  }

  async recordDeliveryState(id: string, change: { state: string; at: Date }): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE messages SET delivery_state = $2, delivery_state_at = $3
       WHERE id = $1 AND (delivery_state_at IS NULL OR delivery_state_at <= $3) RETURNING id`,
      [id, change.state, change.at],
    );
    return rows.length === 1;
  }

  async findByJobId(jobId: string): Promise<Message[]> {
    // a message with its job's id by primary key, the others through messages_job_not_own (migration 28)
    const rows = await this.sql.query(
      `SELECT * FROM messages WHERE id = $1 AND job_id = $1
       UNION ALL SELECT * FROM messages WHERE job_id = $1 AND ${MESSAGES_NOT_BY_JOB_ID_SQL}
       ORDER BY created_at, id`,
      [jobId],
    );
    return rows.map(toMessage);
  }

  async list(scope: EnvironmentScope, query: MessageListQuery): Promise<Page<Message>> {
    if (query.transactionIds !== undefined && query.transactionIds.length === 0) return { items: [], totalCount: 0 };
    const params: unknown[] = [scope.environmentId, scope.organizationId];
    const where = ['environment_id = $1', 'organization_id = $2'];
    if (query.channel !== undefined) where.push(`channel = $${params.push(query.channel)}`);
    if (query.subscriberId !== undefined) where.push(`subscriber_id = $${params.push(query.subscriberId)}`);
    if (query.transactionIds !== undefined) where.push(`transaction_id = ANY($${params.push(query.transactionIds)}::text[])`);
    const filter = where.join(' AND ');
    const limit = `$${params.length + 1}`;
    const offset = `$${params.length + 2}`;
    const limitWithOffset = `$${params.length + 3}`;
    // One subscriber's messages of every channel: its in-app ones are indexed by messages_inbox and the
    // others by messages_env_subscriber_not_in_app (migration 30), so each part is read in order and merged.
    const merged = query.subscriberId !== undefined && query.channel === undefined;
    const parts = merged ? [`${filter} AND channel = 'in_app'`, `${filter} AND ${MESSAGES_NOT_IN_APP_SQL}`] : [filter];
    const ordered = (where: string, bound: string) => `SELECT * FROM messages WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${bound}`;
    const [rows, [count]] = await Promise.all([
      this.sql.query(
        merged
          ? `SELECT * FROM (${parts.map((part) => `(${ordered(part, limitWithOffset)})`).join(' UNION ALL ')}) m ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
          : `${ordered(filter, limit)} OFFSET ${offset}`,
        [...params, query.limit, query.page * query.limit, ...(merged ? [query.limit + query.page * query.limit] : [])],
      ),
      this.sql.query<{ total: number }>(`SELECT ${parts.map((part) => `(SELECT COUNT(*) FROM messages WHERE ${part})`).join(' + ')} AS total`, params),
    ]);
    return { items: rows.map(toMessage), totalCount: count.total };
  }

  async deleteByTransaction(scope: EnvironmentScope, transactionId: string, channel?: Channel | string): Promise<Message[]> {
    const rows = await this.sql.query(
      `DELETE FROM messages WHERE environment_id = $1 AND organization_id = $2 AND transaction_id = $3 AND ($4::text IS NULL OR channel = $4)
       RETURNING *`,
      [scope.environmentId, scope.organizationId, transactionId, channel ?? null],
    );
    return rows.map(toMessage);
  }

  async deleteById(scope: EnvironmentScope, id: string): Promise<Message | null> {
    const [row] = await this.sql.query('DELETE FROM messages WHERE id = $1 AND environment_id = $2 AND organization_id = $3 RETURNING *', [
      id,
      scope.environmentId,
      scope.organizationId,
    ]);
    return row ? toMessage(row) : null;
  }

  async markSeen(scope: EnvironmentScope, subscriberId: string, ids: string[], at: Date): Promise<number> {
    if (ids.length === 0) return 0;
    const rows = await this.sql.query(
      `UPDATE messages SET seen = true, last_seen_date = $5, updated_at = $5
       WHERE environment_id = $1 AND organization_id = $2 AND subscriber_id = $3 AND id = ANY($4::text[]) AND NOT seen RETURNING id`,
      [scope.environmentId, scope.organizationId, subscriberId, ids, at],
    );
    return rows.length;
  }

  async markRead(scope: EnvironmentScope, subscriberId: string, ids: string[], at: Date): Promise<number> {
    if (ids.length === 0) return 0;
    const rows = await this.sql.query(
      `UPDATE messages SET read = true, last_read_date = $5, seen = true, last_seen_date = COALESCE(last_seen_date, $5), updated_at = $5
       WHERE environment_id = $1 AND organization_id = $2 AND subscriber_id = $3 AND id = ANY($4::text[]) AND NOT read RETURNING id`,
      [scope.environmentId, scope.organizationId, subscriberId, ids, at],
    );
    return rows.length;
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.sql, 'messages', before, limit, notificationFinishedSql('notification_id', 3), [UNFINISHED_JOB_STATUSES], 'perEnvironment');
  }
}
