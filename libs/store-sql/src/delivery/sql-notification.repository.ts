import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, Page } from '@app/kernel';
import { Notification, NotificationListQuery, NotificationRepository } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { join, sql } from '../sql-statement';
import { JsonRow, columnSpecs } from '../sql-table';
import { NotificationRow, notifications } from '../tables';
import { deleteOldest, notificationFinished } from './sql-retention';
import { isoTime, setPresent } from './sql-rows';

/** The columns of notifications, those most notifications leave empty last (jsonRows writes no trailing nulls). */
export const NOTIFICATION_COLUMNS = columnSpecs(notifications);

export const toNotificationRow = (n: Notification): JsonRow<typeof notifications> => ({
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

export function toNotification(row: NotificationRow): Notification {
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
    const [row] = await this.sql.query<NotificationRow>(
      sql`SELECT * FROM notifications WHERE id = ${id} AND environment_id = ${scope.environmentId} AND organization_id = ${scope.organizationId}`,
    );
    return row ? toNotification(row) : null;
  }

  async list(scope: EnvironmentScope, query: NotificationListQuery): Promise<Page<Notification>> {
    const where = [sql`environment_id = ${scope.environmentId}`, sql`organization_id = ${scope.organizationId}`];
    if (query.transactionId !== undefined) where.push(sql`transaction_id = ${query.transactionId}`);
    if (query.subscriberId !== undefined) where.push(sql`subscriber_id = ${query.subscriberId}`);
    if (query.subscriberIds) where.push(sql`subscriber_id = ANY(${query.subscriberIds}::text[])`);
    if (query.workflowIds) where.push(sql`workflow_id = ANY(${query.workflowIds}::text[])`);
    if (query.channels) where.push(sql`channels ?| ${query.channels}::text[]`);
    const filter = join(where, ' AND ');
    const [rows, [count]] = await Promise.all([
      this.sql.query<NotificationRow>(
        sql`SELECT * FROM notifications WHERE ${filter} ORDER BY created_at DESC, id DESC LIMIT ${query.limit} OFFSET ${query.page * query.limit}`,
      ),
      this.sql.query<{ total: number }>(sql`SELECT COUNT(*) AS total FROM notifications WHERE ${filter}`),
    ]);
    return { items: rows.map(toNotification), totalCount: count.total };
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.sql, notifications, before, limit, notificationFinished('id'), 'perEnvironment');
  }
}
