import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, Page } from '@app/kernel';
import { Notification, NotificationListQuery, NotificationRepository } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { notifications } from '../tables';
import { deleteOldest, notificationFinished } from './sql-retention';
import { ColumnSpec, isoTime, setPresent } from './sql-rows';

/** The columns of notifications, those most notifications leave empty last (jsonRows writes no trailing nulls). */
export const NOTIFICATION_COLUMNS: readonly ColumnSpec[] = [
  ['id', 'text'],
  ['organization_id', 'text'],
  ['environment_id', 'text'],
  ['workflow_id', 'text'],
  ['workflow_identifier', 'text'],
  ['subscriber_id', 'text'],
  ['external_subscriber_id', 'text'],
  ['transaction_id', 'text'],
  ['recipient', 'jsonb'],
  ['payload', 'jsonb'],
  ['channels', 'jsonb'],
  ['tags', 'jsonb'],
  ['critical', 'boolean'],
  ['topics', 'jsonb'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
  ['first_job', 'jsonb'],
  ['controls', 'jsonb'],
  ['severity', 'text'],
  ['tenant_identifier', 'text'],
  ['actor_subscriber_id', 'text'],
  ['digested_notification_id', 'text'],
  ['context_keys', 'jsonb'],
];

export const toNotificationRow = (n: Notification): Record<string, unknown> => ({
  id: n.id,
  organization_id: n.organizationId,
  environment_id: n.environmentId,
  workflow_id: n.workflowId,
  workflow_identifier: n.workflowIdentifier,
  subscriber_id: n.subscriberId,
  external_subscriber_id: n.externalSubscriberId,
  transaction_id: n.transactionId,
  recipient: n.to,
  payload: n.payload,
  controls: n.controls,
  channels: n.channels,
  tags: n.tags,
  severity: n.severity,
  critical: n.critical,
  topics: n.topics,
  tenant_identifier: n.tenantIdentifier,
  actor_subscriber_id: n.actorSubscriberId,
  digested_notification_id: n.digestedNotificationId,
  context_keys: n.contextKeys,
  created_at: isoTime(n.createdAt),
  updated_at: isoTime(n.updatedAt),
});

export function toNotification(row: any): Notification {
  return setPresent<Notification>(
    {
      id: row.id,
      organizationId: row.organization_id,
      environmentId: row.environment_id,
      workflowId: row.workflow_id,
      workflowIdentifier: row.workflow_identifier,
      subscriberId: row.subscriber_id,
      externalSubscriberId: row.external_subscriber_id,
      transactionId: row.transaction_id,
      to: row.recipient,
      payload: row.payload,
      channels: row.channels,
      tags: row.tags,
      critical: row.critical,
      topics: row.topics,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    },
    {
      controls: row.controls,
      severity: row.severity,
      tenantIdentifier: row.tenant_identifier,
      actorSubscriberId: row.actor_subscriber_id,
      digestedNotificationId: row.digested_notification_id,
      contextKeys: row.context_keys,
    },
  );
}

@Injectable()
export class SqlNotificationRepository implements NotificationRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async findById(scope: EnvironmentScope, id: string): Promise<Notification | null> {
    const [row] = await this.sql.query('SELECT * FROM notifications WHERE id = $1 AND environment_id = $2 AND organization_id = $3', [
      id,
      scope.environmentId,
      scope.organizationId,
    ]);
    return row ? toNotification(row) : null;
  }

  async list(scope: EnvironmentScope, query: NotificationListQuery): Promise<Page<Notification>> {
    const params: unknown[] = [scope.environmentId, scope.organizationId];
    const where = ['environment_id = $1', 'organization_id = $2'];
    if (query.transactionId !== undefined) where.push(`transaction_id = $${params.push(query.transactionId)}`);
    if (query.subscriberId !== undefined) where.push(`subscriber_id = $${params.push(query.subscriberId)}`);
    if (query.subscriberIds) where.push(`subscriber_id = ANY($${params.push(query.subscriberIds)}::text[])`);
    if (query.workflowIds) where.push(`workflow_id = ANY($${params.push(query.workflowIds)}::text[])`);
    if (query.channels) where.push(`channels ?| $${params.push(query.channels)}::text[]`);
    const filter = where.join(' AND ');
    const [rows, [count]] = await Promise.all([
      this.sql.query(`SELECT * FROM notifications WHERE ${filter} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [
        ...params,
        query.limit,
        query.page * query.limit,
      ]),
      this.sql.query<{ total: number }>(`SELECT COUNT(*) AS total FROM notifications WHERE ${filter}`, params),
    ]);
    return { items: rows.map(toNotification), totalCount: count.total };
  }

  async setDigestedNotification(id: string, masterNotificationId: string): Promise<boolean> {
    const rows = await this.sql.query('UPDATE notifications SET digested_notification_id = $2, updated_at = now() WHERE id = $1 RETURNING id', [
      id,
      masterNotificationId,
    ]);
    return rows.length === 1;
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.sql, notifications, before, limit, notificationFinished('id'), 'perEnvironment');
  }
}
