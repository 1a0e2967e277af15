import { Inject, Injectable } from '@nestjs/common';
import { CallBatcher, EnvironmentScope, Page } from '@app/kernel';
import { Job, Notification, NotificationListQuery, NotificationRecords, NotificationRepository, isTerminalJobStatus } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { UNFINISHED_JOB_STATUSES, deleteOldest, notificationFinishedSql } from './sql-retention';
import { EXECUTION_DETAIL_COLUMNS, toExecutionDetailRow, toJobDetailEntry } from './sql-execution-detail.repository';
import { JOB_COLUMNS, leaveOutFirstJobDefaults, toJobRow } from './sql-job.repository';
import { MESSAGE_COLUMNS, toMessageRow } from './sql-message.repository';
import { ColumnSpec, MAX_ROWS_PER_STATEMENT, insertFromJsonSql, isoTime, jsonRows, jsonRowsSource, setPresent } from './sql-rows';

/**
 * The job columns a new notification's jobs are written with: their own, and the details written with them;
 * `output` last, since a step sets it when it runs, after the insert.
 */
const NEW_JOB_COLUMNS: readonly ColumnSpec[] = [...JOB_COLUMNS, ['details', 'jsonb'], ['output', 'jsonb']];

/** The columns of notifications, those most notifications leave empty last (jsonRows writes no trailing nulls). */
const COLUMNS: readonly ColumnSpec[] = [
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
];

const toRow = (n: Notification): Record<string, unknown> => ({
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
    },
  );
}

/**
 * Columns a job or message row of a new notification shares with it, most often with the same
 * value (the fan-out builds them from one trigger): a row leaves out a value equal to its
 * notification's and the statement takes the notification's (`COALESCE(r.col, n.col)`), so each
 * id and the payload cross the wire and get parsed once per delivery, not once per row. Every one
 * of these columns is NOT NULL (a nullable one could not tell a left-out value from a NULL).
 */
type Inherited = readonly (readonly [column: string, notificationColumn: string])[];
const JOB_INHERITS: Inherited = [
  ['organization_id', 'organization_id'],
  ['environment_id', 'environment_id'],
  ['transaction_id', 'transaction_id'],
  ['subscriber_id', 'subscriber_id'],
  ['external_subscriber_id', 'external_subscriber_id'],
  ['workflow_id', 'workflow_id'],
  ['workflow_identifier', 'workflow_identifier'],
  ['payload', 'payload'],
  ['created_at', 'created_at'],
];
const MESSAGE_INHERITS: Inherited = [
  ['organization_id', 'organization_id'],
  ['environment_id', 'environment_id'],
  ['transaction_id', 'transaction_id'],
  ['subscriber_id', 'subscriber_id'],
  ['workflow_id', 'workflow_id'],
  ['template_identifier', 'workflow_identifier'],
  ['payload', 'payload'],
];
const INHERITED_COLUMNS = [...new Set([...JOB_INHERITS, ...MESSAGE_INHERITS].map(([, notificationColumn]) => notificationColumn))];

/** insertFromJsonSql for the rows of the notifications `created` wrote: a column of `inherits` left out of a row is its notification's (`n`). */
function insertInheritingSql(table: string, columns: readonly ColumnSpec[], param: number, inherits: Inherited): string {
  const names = columns.map(([name]) => name);
  const from = new Map(inherits);
  const values = names.map((name) => (from.has(name) ? `COALESCE(r.${name}, n.${from.get(name)})` : `r.${name}`));
  return `INSERT INTO ${table} (${names.join(', ')}) SELECT ${values.join(', ')} FROM ${jsonRowsSource(columns, param)} JOIN created n ON n.id = r.notification_id`;
}

/**
 * Leaves out of `row` the values of `inherits` (column → notification column pairs) equal to its
 * notification's row (the statement takes those). Rows hold ids and times as text, so `===` compares them.
 */
function leaveOutInherited(row: Record<string, unknown>, notificationRow: Record<string, unknown>, inherits: Inherited): Record<string, unknown> {
  for (const [column, notificationColumn] of inherits) if (row[column] === notificationRow[notificationColumn]) row[column] = undefined;
  return row;
}

// One statement: the notifications first, then the rows of those it created (a data-modifying CTE
// sees the others' RETURNING), so a notification that existed brings none of its rows in again.
const OF_CREATED = 'r.notification_id IN (SELECT id FROM created)';
const INSERT_WITH_RECORDS = `WITH created AS (${insertFromJsonSql('notifications', COLUMNS, 1)} ON CONFLICT (id) DO NOTHING RETURNING id, ${INHERITED_COLUMNS.join(', ')}),
  jobs_written AS (${insertInheritingSql('jobs', NEW_JOB_COLUMNS, 2, JOB_INHERITS)} ON CONFLICT (id) DO NOTHING),
  messages_written AS (${insertInheritingSql('messages', MESSAGE_COLUMNS, 3, MESSAGE_INHERITS)} ON CONFLICT (id) DO NOTHING),
  details_written AS (${insertFromJsonSql('execution_details', EXECUTION_DETAIL_COLUMNS, 4, OF_CREATED)} ON CONFLICT (id) DO NOTHING)
SELECT id FROM created`;

/**
 * Whether `job` (its row `row`, inherited values left out) can be kept on its notification's row
 * (`first_job`, migration 27): the first of its chain, finished as written (so never updated), and
 * sharing every inherited column with the notification, which the reads take them from.
 */
function keepsOnNotification(job: Job, row: Record<string, unknown>, notificationRow: Record<string, unknown>): boolean {
  return (
    notificationRow.first_job === undefined &&
    isTerminalJobStatus(job.status) &&
    job.parentId === undefined &&
    job.notificationId === notificationRow.id &&
    JOB_INHERITS.every(([column]) => row[column] === undefined)
  );
}

/**
 * The job rows of a new notification, each with the details written with it kept on its row
 * (jobs.details, migration 23): one row per delivery fewer. A detail of none of these jobs (or
 * naming another scope) stays a row of execution_details. A first job finished as written goes on
 * the notification's row instead (keepsOnNotification): one row fewer again.
 */
function splitDetails(
  { jobs, details }: NotificationRecords,
  notificationRow: Record<string, unknown>,
  jobRows: Record<string, unknown>[],
  detailRows: Record<string, unknown>[],
): void {
  const onJob = new Map<string, Record<string, unknown>[]>();
  const byId = new Map(jobs.map((job) => [job.id, job]));
  for (const detail of details) {
    const job = byId.get(detail.jobId);
    const entry = job && toJobDetailEntry(detail, job);
    if (!entry) {
      detailRows.push(toExecutionDetailRow(detail));
      continue;
    }
    const list = onJob.get(detail.jobId);
    if (list) list.push(entry);
    else onJob.set(detail.jobId, [entry]);
  }
  for (const job of jobs) {
    const row = toJobRow(job);
    row.details = onJob.get(job.id);
    leaveOutInherited(row, notificationRow, JOB_INHERITS);
    if (!keepsOnNotification(job, row, notificationRow)) {
      jobRows.push(row);
      continue;
    }
    row.notification_id = undefined;
    notificationRow.first_job = leaveOutFirstJobDefaults(row);
  }
}

@Injectable()
export class SqlNotificationRepository implements NotificationRepository {
  private readonly recordInserts = new CallBatcher<NotificationRecords[], Set<string>>(
    async (_, calls) => {
      // the same notification in two calls: only the first caller's rows go in
      const taken = new Set<string>();
      const kept = calls.map((records) => records.filter(({ notification }) => !taken.has(notification.id) && taken.add(notification.id)));
      const all = kept.flat();
      const notificationRows: Record<string, unknown>[] = [];
      const jobRows: Record<string, unknown>[] = [];
      const messageRows: Record<string, unknown>[] = [];
      const detailRows: Record<string, unknown>[] = [];
      for (const records of all) {
        const notificationRow = toRow(records.notification);
        notificationRows.push(notificationRow);
        splitDetails(records, notificationRow, jobRows, detailRows);
        for (const message of records.messages) messageRows.push(leaveOutInherited(toMessageRow(message), notificationRow, MESSAGE_INHERITS));
      }
      const rows = await this.sql.queryPrepared<{ id: string }>(INSERT_WITH_RECORDS, [
        jsonRows(notificationRows, COLUMNS),
        jsonRows(jobRows, NEW_JOB_COLUMNS),
        jsonRows(messageRows, MESSAGE_COLUMNS),
        jsonRows(detailRows, EXECUTION_DETAIL_COLUMNS),
      ]);
      const created = new Set(rows.map((row) => row.id));
      return kept.map((records) => new Set(records.filter(({ notification }) => created.has(notification.id)).map(({ notification }) => notification.id)));
    },
    MAX_ROWS_PER_STATEMENT,
    (records) => records.length,
  );

  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  insertWithRecords(records: NotificationRecords[]): Promise<Set<string>> {
    return records.length ? this.recordInserts.run('', records) : Promise.resolve(new Set());
  }

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
    return deleteOldest(this.sql, 'notifications', before, limit, notificationFinishedSql('id', 3), [UNFINISHED_JOB_STATUSES], 'perEnvironment');
  }
}
