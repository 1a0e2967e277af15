import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { ExecutionDetail, ExecutionDetailRepository, Job } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { param, sql } from '../sql-statement';
import { JsonRow, columnSpecs } from '../sql-table';
import { ExecutionDetailRow, executionDetails } from '../tables';
import { FIRST_JOB_DETAILS_RETENTION, JOB_DETAILS_RETENTION, clearOldest, deleteOldest, notificationFinished } from './sql-retention';
import { jobsWithIdIn } from './sql-job.repository';
import { batchedInsertManyIfAbsent, isoTime, setPresent } from './sql-rows';

export const EXECUTION_DETAIL_COLUMNS = columnSpecs(executionDetails);

/** The columns of a detail that are not its job's: a detail kept on its job's row has these only. */
const ownColumns = (d: ExecutionDetail): JsonRow<typeof executionDetails> => ({
  id: d.id,
  channel: d.channel,
  provider_id: d.providerId,
  status: d.status,
  source: d.source,
  detail: d.detail,
  raw: d.raw,
  is_retry: d.isRetry,
  is_test: d.isTest,
  created_at: isoTime(d.createdAt),
});

export const toExecutionDetailRow = (d: ExecutionDetail): JsonRow<typeof executionDetails> => ({
  ...ownColumns(d),
  organization_id: d.organizationId,
  environment_id: d.environmentId,
  notification_id: d.notificationId,
  job_id: d.jobId,
  subscriber_id: d.subscriberId,
  transaction_id: d.transactionId,
});

/**
 * A detail kept on its job's row (jobs.details, migration 23): only the fields that are not the
 * job's own. Undefined when the detail names another job, notification, subscriber or scope than
 * `job`: such a detail is a row of its own.
 */
export function toJobDetailEntry(d: ExecutionDetail, job: Job): JsonRow<typeof executionDetails> | undefined {
  const own =
    d.jobId === job.id &&
    d.organizationId === job.organizationId &&
    d.environmentId === job.environmentId &&
    d.notificationId === job.notificationId &&
    d.subscriberId === job.subscriberId &&
    d.transactionId === job.transactionId;
  if (!own) return undefined;
  // The values most details have are left out of the entry, as JOB_DETAIL_ROWS reads a missing one.
  const entry = ownColumns(d);
  if (entry.raw === null) entry.raw = undefined;
  if (entry.is_retry === false) entry.is_retry = undefined;
  if (entry.is_test === false) entry.is_test = undefined;
  return entry;
}

/** A list of job ids and a scope, each one placeholder however often a statement names it. */
const JOB_IDS = param('jobIds');
const ENVIRONMENT_ID = param('environmentId');
const ORGANIZATION_ID = param('organizationId');

/**
 * The columns of execution_details, read from the details kept on the rows of the jobs JOB_IDS
 * (jobsWithIdIn); a flag an entry leaves out (toJobDetailEntry) is false, a raw left out NULL.
 */
const JOB_DETAIL_ROWS = sql`SELECT d.id, j.organization_id, j.environment_id, j.notification_id, j.id AS job_id, j.subscriber_id, j.transaction_id,
         d.channel, d.provider_id, d.status, d.source, d.detail, d.raw, COALESCE(d.is_retry, false) AS is_retry, COALESCE(d.is_test, false) AS is_test, d.created_at
  FROM (${jobsWithIdIn(JOB_IDS)}) j CROSS JOIN LATERAL jsonb_to_recordset(j.details) AS d(id text, channel text, provider_id text, status text, source text,
         detail text, raw text, is_retry boolean, is_test boolean, created_at timestamptz)`;

/** The details of the jobs JOB_IDS of a scope: the table's, and those kept on the jobs' rows (written with the job). */
const DETAILS_OF_JOBS = sql`SELECT * FROM execution_details WHERE job_id = ANY(${JOB_IDS}::text[]) AND environment_id = ${ENVIRONMENT_ID} AND organization_id = ${ORGANIZATION_ID}
       UNION ALL
       ${JOB_DETAIL_ROWS} WHERE j.details IS NOT NULL AND j.environment_id = ${ENVIRONMENT_ID} AND j.organization_id = ${ORGANIZATION_ID}
       ORDER BY created_at, id`;

export function toExecutionDetail(row: ExecutionDetailRow): ExecutionDetail {
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
    const rows = await this.sql.query<ExecutionDetailRow>(
      DETAILS_OF_JOBS.bind({ jobIds, environmentId: scope.environmentId, organizationId: scope.organizationId }),
    );
    return rows.map(toExecutionDetail);
  }

  /**
   * The table's rows first, then the details kept on job rows, then those on the first jobs kept on
   * notification rows: a job's details all go at once, once all are older than `before`.
   */
  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    let deleted = await deleteOldest(this.sql, executionDetails, before, limit, notificationFinished('notification_id'));
    if (deleted < limit) deleted += await clearOldest(this.sql, before, limit - deleted, JOB_DETAILS_RETENTION);
    if (deleted < limit) deleted += await clearOldest(this.sql, before, limit - deleted, FIRST_JOB_DETAILS_RETENTION);
    return deleted;
  }
}
