import { Inject, Injectable } from '@nestjs/common';
import { Channel, EnvironmentScope, Page } from '@app/kernel';
import { Message, MessageListQuery, MessageRepository } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { Sql, join, raw, sql } from '../sql-statement';
import { JsonRow, columnSpecs } from '../sql-table';
import { MessageRow, messages } from '../tables';
import { deleteOldest, notificationFinished } from './sql-retention';
import { isoTime, setPresent } from './sql-rows';

/** The columns of messages, in the order bulk inserts write them (jsonRows). */
export const MESSAGE_COLUMNS = columnSpecs(messages);

export const toMessageRow = (m: Message): JsonRow<typeof messages> => ({
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

export function toMessage(row: MessageRow): Message {
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
      deliveredAt: (row.delivered_at ?? []).map((d) => new Date(d)),
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

/** The message `id` of the scope. */
const inScope = (scope: EnvironmentScope, id: string) =>
  sql`id = ${id} AND environment_id = ${scope.environmentId} AND organization_id = ${scope.organizationId}`;

@Injectable()
export class SqlMessageRepository implements MessageRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async findById(scope: EnvironmentScope, id: string): Promise<Message | null> {
    const [row] = await this.sql.query<MessageRow>(sql`SELECT * FROM messages WHERE ${inScope(scope, id)}`);
    return row ? toMessage(row) : null;
  }

  async findByProviderIdentifier(scope: EnvironmentScope, providerId: string, identifiers: string[]): Promise<Message | null> {
    if (!identifiers.length) return null;
    const [row] = await this.sql.query<MessageRow>(
      sql`SELECT * FROM messages
          WHERE environment_id = ${scope.environmentId} AND organization_id = ${scope.organizationId} AND provider_id = ${providerId} AND identifier = ANY(${identifiers}::text[])
          ORDER BY created_at DESC, id DESC LIMIT 1`,
    );
    return row ? toMessage(row) : null;
  }

  async recordDeliveryState(id: string, change: { state: string; at: Date }): Promise<boolean> {
    const rows = await this.sql.query(
      sql`UPDATE messages SET delivery_state = ${change.state}, delivery_state_at = ${change.at}
          WHERE id = ${id} AND (delivery_state_at IS NULL OR delivery_state_at <= ${change.at}) RETURNING id`,
    );
    return rows.length === 1;
  }

  async findByJobId(jobId: string): Promise<Message[]> {
    // a message with its job's id by primary key, the others through messages_job_not_own (migration 28)
    const rows = await this.sql.query<MessageRow>(
      sql`SELECT * FROM messages WHERE id = ${jobId} AND job_id = ${jobId}
          UNION ALL SELECT * FROM messages WHERE job_id = ${jobId} AND ${raw(MESSAGES_NOT_BY_JOB_ID_SQL)}
          ORDER BY created_at, id`,
    );
    return rows.map(toMessage);
  }

  async list(scope: EnvironmentScope, query: MessageListQuery): Promise<Page<Message>> {
    if (query.transactionIds !== undefined && query.transactionIds.length === 0) return { items: [], totalCount: 0 };
    const where: Sql[] = [sql`environment_id = ${scope.environmentId}`, sql`organization_id = ${scope.organizationId}`];
    if (query.channel !== undefined) where.push(sql`channel = ${query.channel}`);
    if (query.subscriberId !== undefined) where.push(sql`subscriber_id = ${query.subscriberId}`);
    if (query.transactionIds !== undefined) where.push(sql`transaction_id = ANY(${query.transactionIds}::text[])`);
    const filter = join(where, ' AND ');
    // One subscriber's messages of every channel: its in-app ones are indexed by messages_inbox and the
    // others by messages_env_subscriber_not_in_app (migration 30), so each part is read in order and merged.
    const merged = query.subscriberId !== undefined && query.channel === undefined;
    const parts = merged ? [sql`${filter} AND channel = 'in_app'`, sql`${filter} AND ${raw(MESSAGES_NOT_IN_APP_SQL)}`] : [filter];
    const ordered = (part: Sql, bound: number) => sql`SELECT * FROM messages WHERE ${part} ORDER BY created_at DESC, id DESC LIMIT ${bound}`;
    const offset = query.page * query.limit;
    const [rows, [count]] = await Promise.all([
      this.sql.query<MessageRow>(
        merged
          ? sql`SELECT * FROM (${join(
              parts.map((part) => sql`(${ordered(part, query.limit + offset)})`),
              ' UNION ALL ',
            )}) m ORDER BY created_at DESC, id DESC LIMIT ${query.limit} OFFSET ${offset}`
          : sql`${ordered(filter, query.limit)} OFFSET ${offset}`,
      ),
      this.sql.query<{ total: number }>(
        sql`SELECT ${join(
          parts.map((part) => sql`(SELECT COUNT(*) FROM messages WHERE ${part})`),
          ' + ',
        )} AS total`,
      ),
    ]);
    return { items: rows.map(toMessage), totalCount: count.total };
  }

  async deleteByTransaction(scope: EnvironmentScope, transactionId: string, channel?: Channel | string): Promise<Message[]> {
    const rows = await this.sql.query<MessageRow>(
      sql`DELETE FROM messages
          WHERE environment_id = ${scope.environmentId} AND organization_id = ${scope.organizationId} AND transaction_id = ${transactionId}
            AND (${channel ?? null}::text IS NULL OR channel = ${channel ?? null})
          RETURNING *`,
    );
    return rows.map(toMessage);
  }

  async deleteById(scope: EnvironmentScope, id: string): Promise<Message | null> {
    const [row] = await this.sql.query<MessageRow>(sql`DELETE FROM messages WHERE ${inScope(scope, id)} RETURNING *`);
    return row ? toMessage(row) : null;
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.sql, messages, before, limit, notificationFinished('notification_id'), 'perEnvironment');
  }
}
