import { Inject, Injectable } from '@nestjs/common';
import { CallBatcher, EnvironmentScope } from '@app/kernel';
import { CANCELABLE_JOB_STATUSES, Job, JobRepository, inChainOrder } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { Sql, param, raw, sql } from '../sql-statement';
import { JsonRow, columnSpecs } from '../sql-table';
import { JobRow, jobs } from '../tables';
import { FIRST_JOB_RETENTION, clearOldest, deleteOldest, notificationFinished } from './sql-retention';
import { isoTime, setPresent } from './sql-rows';

/**
 * The cancelable statuses as literals: the planner then sees that a search holding them is within the
 * partial index jobs_env_transaction_cancelable (migration 25), whose predicate is the same list.
 */
export const CANCELABLE_STATUS_SQL = `status IN (${CANCELABLE_JOB_STATUSES.map((status) => `'${status}'`).join(', ')})`;

/** The columns of a job's own fields: all of jobs' but `details` and `output`, which a new chain's insert adds (NEW_JOB_COLUMNS). */
export const JOB_COLUMNS = columnSpecs(jobs).filter(([name]) => name !== 'details' && name !== 'output');

export const toJobRow = (j: Job): JsonRow<typeof jobs> => ({
  id: j.id,
  organization_id: j.organizationId,
  environment_id: j.environmentId,
  notification_id: j.notificationId,
  transaction_id: j.transactionId,
  subscriber_id: j.subscriberId,
  external_subscriber_id: j.externalSubscriberId,
  workflow_id: j.workflowId,
  workflow_identifier: j.workflowIdentifier,
  step_id: j.stepId,
  parent_id: j.parentId,
  type: j.type,
  status: j.status,
  provider_id: j.providerId,
  payload: j.payload,
  overrides: j.overrides,
  tenant: j.tenant,
  actor_id: j.actorId,
  context_keys: j.contextKeys,
  digest: j.digest,
  digest_bucket_key: j.digestBucketKey,
  merged_digest_id: j.mergedDigestId,
  run_at: isoTime(j.runAt),
  attempts: j.attempts,
  schedule_extensions_count: j.scheduleExtensionsCount,
  error: j.error,
  created_at: isoTime(j.createdAt),
  updated_at: isoTime(j.updatedAt),
  output: j.output,
});

export function toJob(row: JobRow): Job {
  return setPresent<Job>(
    {
      id: row.id,
      organizationId: row.organization_id,
      environmentId: row.environment_id,
      notificationId: row.notification_id,
      transactionId: row.transaction_id,
      subscriberId: row.subscriber_id,
      externalSubscriberId: row.external_subscriber_id,
      workflowId: row.workflow_id,
      workflowIdentifier: row.workflow_identifier,
      stepId: row.step_id,
      type: row.type,
      status: row.status,
      payload: row.payload,
      overrides: row.overrides,
      attempts: row.attempts,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    },
    {
      parentId: row.parent_id,
      providerId: row.provider_id,
      tenant: row.tenant,
      actorId: row.actor_id,
      contextKeys: row.context_keys,
      digest: row.digest,
      digestBucketKey: row.digest_bucket_key,
      mergedDigestId: row.merged_digest_id,
      runAt: row.run_at,
      scheduleExtensionsCount: row.schedule_extensions_count,
      error: row.error,
      output: row.output,
    },
  );
}

/**
 * Values of a first job kept on its notification's row that the row leaves out (most first jobs have
 * them, and each costs its key on every such row); FIRST_JOB_ROWS reads a value left out as this.
 */
const FIRST_JOB_DEFAULTS = { attempts: 0, overrides: {} } as const;

/** Leaves out of a first job's row (keys as toJobRow's) the values that are FIRST_JOB_DEFAULTS'. */
export function leaveOutFirstJobDefaults(row: Record<string, unknown>): Record<string, unknown> {
  if (row.attempts === FIRST_JOB_DEFAULTS.attempts) row.attempts = undefined;
  const overrides = row.overrides;
  if (typeof overrides === 'object' && overrides !== null && !Array.isArray(overrides) && Object.keys(overrides).length === 0) row.overrides = undefined;
  return row;
}

/**
 * The first jobs kept on their notifications' rows (`first_job`, migration 27) as rows of jobs, for the
 * notifications `n` a query picks: the job's own columns, and those it shares with its notification.
 * Columns as `SELECT * FROM jobs` has them, so both read alike.
 */
const FIRST_JOB_ROWS =
  raw(`SELECT j.* FROM notifications n CROSS JOIN LATERAL jsonb_populate_record(NULL::jobs, '${JSON.stringify(FIRST_JOB_DEFAULTS)}'::jsonb || n.first_job || jsonb_build_object(
    'notification_id', n.id, 'organization_id', n.organization_id, 'environment_id', n.environment_id, 'transaction_id', n.transaction_id,
    'subscriber_id', n.subscriber_id, 'external_subscriber_id', n.external_subscriber_id, 'workflow_id', n.workflow_id,
    'workflow_identifier', n.workflow_identifier, 'payload', n.payload, 'created_at', n.created_at)) j`);

/**
 * The jobs whose id is one of the text[] `ids`, wherever each is kept (primary key; notifications_first_job index).
 * `ids` is named twice: a `param` sends the list once.
 */
export const jobsWithIdIn = (ids: unknown): Sql =>
  sql`SELECT * FROM jobs WHERE id = ANY(${ids}::text[])
   UNION ALL ${FIRST_JOB_ROWS} WHERE n.first_job IS NOT NULL AND n.first_job->>'id' = ANY(${ids}::text[])`;

/** A list of ids and a scope, each one placeholder however often a statement names it. */
const IDS = param('ids');
const ENVIRONMENT_ID = param('environmentId');
const ORGANIZATION_ID = param('organizationId');

const JOBS_WITH_ID_IN = jobsWithIdIn(IDS);

/** Each job's notification, then all its jobs wherever each is kept. */
const CHAINS_OF = sql`SELECT l.id AS lead_id, c.* FROM (${JOBS_WITH_ID_IN}) l CROSS JOIN LATERAL (
         SELECT * FROM jobs WHERE notification_id = l.notification_id
         UNION ALL ${FIRST_JOB_ROWS} WHERE n.id = l.notification_id AND n.first_job IS NOT NULL
       ) c`;

const JOBS_OF_NOTIFICATIONS = sql`SELECT * FROM jobs WHERE notification_id = ANY(${IDS}::text[]) AND environment_id = ${ENVIRONMENT_ID} AND organization_id = ${ORGANIZATION_ID}
       UNION ALL
       ${FIRST_JOB_ROWS} WHERE n.id = ANY(${IDS}::text[]) AND n.first_job IS NOT NULL AND n.environment_id = ${ENVIRONMENT_ID} AND n.organization_id = ${ORGANIZATION_ID}
       ORDER BY notification_id, created_at, id`;

@Injectable()
export class SqlJobRepository implements JobRepository {
  private readonly byId = new CallBatcher<string, Job | null>(async (_, ids) => {
    const rows = await this.sql.query<JobRow>(JOBS_WITH_ID_IN.bind({ ids }));
    const found = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => {
      const row = found.get(id);
      return row ? toJob(row) : null;
    });
  });
  private readonly chains = new CallBatcher<string, Job[]>(async (_, ids) => {
    const rows = await this.sql.query<JobRow & { lead_id: string }>(CHAINS_OF.bind({ ids }));
    const byLead = new Map<string, Job[]>();
    for (const row of rows) {
      const chain = byLead.get(row.lead_id);
      if (chain) chain.push(toJob(row));
      else byLead.set(row.lead_id, [toJob(row)]);
    }
    return ids.map((id) => inChainOrder(byLead.get(id) ?? []));
  });

  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  findById(id: string): Promise<Job | null> {
    return this.byId.run('', id);
  }

  findChain(jobId: string): Promise<Job[]> {
    return this.chains.run('', jobId);
  }

  async findByNotificationIds(scope: EnvironmentScope, notificationIds: string[]): Promise<Job[]> {
    if (notificationIds.length === 0) return [];
    const rows = await this.sql.query<JobRow>(
      JOBS_OF_NOTIFICATIONS.bind({ ids: notificationIds, environmentId: scope.environmentId, organizationId: scope.organizationId }),
    );
    return inChainOrder(rows.map(toJob));
  }

  async findOverdue(before: Date, limit: number): Promise<Job[]> {
    const rows = await this.sql.query<JobRow>(
      sql`SELECT * FROM jobs
       WHERE (status IN ('queued', 'running') AND updated_at < ${before}) OR (status = 'delayed' AND run_at < ${before})
       ORDER BY updated_at LIMIT ${limit}`,
    );
    return rows.map(toJob);
  }

  async cancelPendingByTransaction(scope: EnvironmentScope, transactionId: string, at?: Date): Promise<Job[]> {
    const rows = await this.sql.query<JobRow>(
      sql`UPDATE jobs SET status = 'canceled', updated_at = COALESCE(${at ?? null}::timestamptz, now())
       WHERE environment_id = ${scope.environmentId} AND organization_id = ${scope.organizationId} AND transaction_id = ${transactionId} AND ${raw(CANCELABLE_STATUS_SQL)} RETURNING *`,
    );
    return rows.map(toJob);
  }

  /** The table's rows first, then the first jobs kept on notification rows. */
  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const deleted = await deleteOldest(this.sql, jobs, before, limit, notificationFinished('notification_id'));
    return deleted < limit ? deleted + (await clearOldest(this.sql, before, limit - deleted, FIRST_JOB_RETENTION)) : deleted;
  }
}
