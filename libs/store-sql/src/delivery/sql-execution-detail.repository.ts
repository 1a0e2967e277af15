import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { ExecutionDetail, ExecutionDetailRepository } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { UNFINISHED_JOB_STATUSES, deleteOldest, notificationFinishedSql } from './sql-retention';
import { ColumnSpec, batchedInsertManyIfAbsent, setPresent } from './sql-rows';

export const EXECUTION_DETAIL_COLUMNS: readonly ColumnSpec[] = [
  ['id', 'text'],
  ['organization_id', 'text'],
  ['environment_id', 'text'],
  ['notification_id', 'text'],
  ['job_id', 'text'],
  ['subscriber_id', 'text'],
  ['transaction_id', 'text'],
  ['channel', 'text'],
  ['provider_id', 'text'],
  ['status', 'text'],
  ['source', 'text'],
  ['detail', 'text'],
  ['raw', 'text'],
  ['is_retry', 'boolean'],
  ['is_test', 'boolean'],
  ['created_at', 'timestamptz'],
];

export const toExecutionDetailRow = (d: ExecutionDetail): Record<string, unknown> => ({
  id: d.id,
  organization_id: d.organizationId,
  environment_id: d.environmentId,
  notification_id: d.notificationId,
  job_id: d.jobId,
  subscriber_id: d.subscriberId,
  transaction_id: d.transactionId,
  channel: d.channel ?? null,
  provider_id: d.providerId ?? null,
  status: d.status,
  source: d.source,
  detail: d.detail,
  raw: d.raw,
  is_retry: d.isRetry,
  is_test: d.isTest,
  created_at: d.createdAt,
});

export function toExecutionDetail(row: any): ExecutionDetail {
  return setPresent<ExecutionDetail>(
    {
      id: row.id,
      organizationId: row.organization_id,
      environmentId: row.environment_id,
      notificationId: row.notification_id,
      jobId: row.job_id,
      subscriberId: row.subscriber_id,
      transactionId: row.transaction_id,
      status: row.status,
      source: row.source,
      detail: row.detail,
      raw: row.raw ?? null,
      isRetry: row.is_retry,
      isTest: row.is_test,
      createdAt: row.created_at,
    },
    { channel: row.channel, providerId: row.provider_id },
  );
}

@Injectable()
export class SqlExecutionDetailRepository implements ExecutionDetailRepository {
  private readonly inserts: (rows: Record<string, unknown>[]) => Promise<number>;

  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {
    this.inserts = batchedInsertManyIfAbsent(sql, 'execution_details', EXECUTION_DETAIL_COLUMNS);
  }

  async append(detail: ExecutionDetail): Promise<void> {
    await this.appendMany([detail]);
  }

  async appendMany(details: ExecutionDetail[]): Promise<void> {
    await this.inserts(details.map(toExecutionDetailRow));
  }

  async listByJobIds(scope: EnvironmentScope, jobIds: string[]): Promise<ExecutionDetail[]> {
    if (jobIds.length === 0) return [];
    const rows = await this.sql.query(
      `SELECT * FROM execution_details WHERE job_id = ANY($1::text[]) AND environment_id = $2 AND organization_id = $3
       ORDER BY created_at, id`,
      [jobIds, scope.environmentId, scope.organizationId],
    );
    return rows.map(toExecutionDetail);
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.sql, 'execution_details', before, limit, notificationFinishedSql('notification_id', 3), [UNFINISHED_JOB_STATUSES]);
  }
}
