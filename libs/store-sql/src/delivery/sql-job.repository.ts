import { Inject, Injectable } from '@nestjs/common';
import { CallBatcher, EnvironmentScope } from '@app/kernel';
import { CANCELABLE_JOB_STATUSES, EndedChildStatus, Job, JobPatch, JobRepository, JobStatus, inChainOrder, jobStatusesAllowing } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { jobs } from '../tables';
import { FIRST_JOB_RETENTION, clearOldest, deleteOldest, notificationFinished } from './sql-retention';
import { ColumnSpec, isoTime, present, setPresent } from './sql-rows';

/**
 * The cancelable statuses as literals: the planner then sees that a search holding them is within the
 * partial index jobs_env_transaction_cancelable (migration 25), whose predicate is the same list.
 */
export const CANCELABLE_STATUS_SQL = `status IN (${CANCELABLE_JOB_STATUSES.map((status) => `'${status}'`).join(', ')})`;

export const JOB_COLUMNS: readonly ColumnSpec[] = [
  ['id', 'text'],
  ['organization_id', 'text'],
  ['environment_id', 'text'],
  ['notification_id', 'text'],
  ['transaction_id', 'text'],
  ['subscriber_id', 'text'],
  ['external_subscriber_id', 'text'],
  ['workflow_id', 'text'],
  ['workflow_identifier', 'text'],
  ['step_id', 'text'],
  ['parent_id', 'text'],
  ['type', 'text'],
  ['status', 'text'],
  ['provider_id', 'text'],
  ['payload', 'jsonb'],
  ['overrides', 'jsonb'],
  ['tenant', 'jsonb'],
  ['actor_id', 'text'],
  ['digest', 'jsonb'],
  ['digest_bucket_key', 'text'],
  ['merged_digest_id', 'text'],
  ['run_at', 'timestamptz'],
  ['attempts', 'integer'],
  ['schedule_extensions_count', 'integer'],
  ['error', 'jsonb'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
  ['context_keys', 'jsonb'],
];

/** The fields a transition may patch → column and whether it is jsonb; the only names that reach SQL text. */
const PATCH_COLUMNS: Record<keyof JobPatch, { column: string; json: boolean }> = {
  providerId: { column: 'provider_id', json: false },
  payload: { column: 'payload', json: true },
  overrides: { column: 'overrides', json: true },
  digest: { column: 'digest', json: true },
  digestBucketKey: { column: 'digest_bucket_key', json: false },
  mergedDigestId: { column: 'merged_digest_id', json: false },
  runAt: { column: 'run_at', json: false },
  attempts: { column: 'attempts', json: false },
  scheduleExtensionsCount: { column: 'schedule_extensions_count', json: false },
  error: { column: 'error', json: true },
  output: { column: 'output', json: true },
  updatedAt: { column: 'updated_at', json: false },
};

export const toJobRow = (j: Job): Record<string, unknown> => ({
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

export function toJob(row: any): Job {
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
const FIRST_JOB_ROWS = `SELECT j.* FROM notifications n CROSS JOIN LATERAL jsonb_populate_record(NULL::jobs, '${JSON.stringify(FIRST_JOB_DEFAULTS)}'::jsonb || n.first_job || jsonb_build_object(
    'notification_id', n.id, 'organization_id', n.organization_id, 'environment_id', n.environment_id, 'transaction_id', n.transaction_id,
    'subscriber_id', n.subscriber_id, 'external_subscriber_id', n.external_subscriber_id, 'workflow_id', n.workflow_id,
    'workflow_identifier', n.workflow_identifier, 'payload', n.payload, 'created_at', n.created_at)) j`;

/** The jobs whose id is one of the text[] parameter `param`, wherever each is kept (primary key; notifications_first_job index). */
export const jobsWithIdIn = (param: number) =>
  `SELECT * FROM jobs WHERE id = ANY($${param}::text[])
   UNION ALL ${FIRST_JOB_ROWS} WHERE n.first_job IS NOT NULL AND n.first_job->>'id' = ANY($${param}::text[])`;

@Injectable()
export class SqlJobRepository implements JobRepository {
  private readonly byId = new CallBatcher<string, Job | null>(async (_, ids) => {
    const rows = await this.sql.query(jobsWithIdIn(1), [ids]);
    const found = new Map(rows.map((row) => [row.id as string, row]));
    return ids.map((id) => (found.has(id) ? toJob(found.get(id)) : null));
  });
  private readonly chains = new CallBatcher<string, Job[]>(async (_, ids) => {
    // each job's notification, then all its jobs wherever each is kept
    const rows = await this.sql.query(
      `SELECT l.id AS lead_id, c.* FROM (${jobsWithIdIn(1)}) l CROSS JOIN LATERAL (
         SELECT * FROM jobs WHERE notification_id = l.notification_id
         UNION ALL ${FIRST_JOB_ROWS} WHERE n.id = l.notification_id AND n.first_job IS NOT NULL
       ) c`,
      [ids],
    );
    const byLead = new Map<string, Job[]>();
    for (const row of rows) {
      const chain = byLead.get(row.lead_id);
      if (chain) chain.push(toJob(row));
      else byLead.set(row.lead_id, [toJob(row)]);
    }
    return ids.map((id) => inChainOrder(byLead.get(id) ?? []));
  });
  /** Transitions with the same target and patch share a statement (the hot ones have no patch or a constant one). */
  private readonly transitions = new CallBatcher<{ id: string; to: JobStatus; patch: JobPatch }, boolean>(async (_, inputs) => {
    const { to, patch } = inputs[0];
    const ids = inputs.map((input) => input.id);
    const params: unknown[] = [ids, to, jobStatusesAllowing(to)];
    const sets = ['status = $2'];
    for (const [field, value] of Object.entries(patch) as [keyof JobPatch, unknown][]) {
      const spec = PATCH_COLUMNS[field];
      if (!spec || value === undefined) continue;
      const param = spec.json && present(value) ? JSON.stringify(value) : value;
      sets.push(`${spec.column} = $${params.push(param)}${spec.json ? '::jsonb' : ''}`);
    }
    if (!present(patch.updatedAt)) sets.push('updated_at = now()');
    const rows = await this.sql.query(`UPDATE jobs SET ${sets.join(', ')} WHERE id = ANY($1::text[]) AND status = ANY($3::text[]) RETURNING id`, params);
    // the same job twice in one batch moved once: only its first caller hears so
    const moved = new Set(rows.map((row) => row.id as string));
    return ids.map((id) => moved.delete(id));
  });
  private readonly nextInChain = new CallBatcher<{ parentId: string; digestEvents?: Record<string, unknown>[] }, Job | null>(async (_, inputs) => {
    const events = inputs[0].digestEvents;
    const parents = inputs.map((input) => input.parentId);
    const rows = await this.sql.query(
      `UPDATE jobs SET status = 'queued', updated_at = now()${events ? `, digest = COALESCE(digest, '{}'::jsonb) || jsonb_build_object('events', $2::jsonb)` : ''}
       WHERE parent_id = ANY($1::text[]) AND status = 'pending' RETURNING *`,
      events ? [parents, JSON.stringify(events)] : [parents],
    );
    const byParent = new Map(rows.map((row) => [row.parent_id as string, toJob(row)]));
    return parents.map((parentId) => {
      const next = byParent.get(parentId) ?? null;
      byParent.delete(parentId); // the same chain twice in one batch moved once
      return next;
    });
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
    const rows = await this.sql.query(
      `SELECT * FROM jobs WHERE notification_id = ANY($1::text[]) AND environment_id = $2 AND organization_id = $3
       UNION ALL
       ${FIRST_JOB_ROWS} WHERE n.id = ANY($1::text[]) AND n.first_job IS NOT NULL AND n.environment_id = $2 AND n.organization_id = $3
       ORDER BY notification_id, created_at, id`,
      [notificationIds, scope.environmentId, scope.organizationId],
    );
    return inChainOrder(rows.map(toJob));
  }

  async transition(id: string, to: JobStatus, patch: JobPatch = {}): Promise<boolean> {
    if (jobStatusesAllowing(to).length === 0) return false;
    return this.transitions.run(`${to}:${JSON.stringify(patch)}`, { id, to, patch });
  }

  queueNext(parentId: string, digestEvents?: Record<string, unknown>[]): Promise<Job | null> {
    return this.nextInChain.run(digestEvents ? `events:${JSON.stringify(digestEvents)}` : '', { parentId, digestEvents });
  }

  async findOverdue(before: Date, limit: number): Promise<Job[]> {
    const rows = await this.sql.query(
      `SELECT * FROM jobs
       WHERE (status IN ('queued', 'running') AND updated_at < $1) OR (status = 'delayed' AND run_at < $1)
       ORDER BY updated_at LIMIT $2`,
      [before, limit],
    );
    return rows.map(toJob);
  }

  async cancelPendingByTransaction(scope: EnvironmentScope, transactionId: string, at?: Date): Promise<Job[]> {
    const rows = await this.sql.query(
      `UPDATE jobs SET status = 'canceled', updated_at = COALESCE($4::timestamptz, now())
       WHERE environment_id = $1 AND organization_id = $2 AND transaction_id = $3 AND ${CANCELABLE_STATUS_SQL} RETURNING *`,
      [scope.environmentId, scope.organizationId, transactionId, at ?? null],
    );
    return rows.map(toJob);
  }

  async cancelChildren(notificationId: string, afterJobId?: string, at?: Date, status: EndedChildStatus = 'canceled'): Promise<string[]> {
    const rows =
      afterJobId === undefined
        ? await this.sql.query(
            `UPDATE jobs SET status = $4, updated_at = COALESCE($3::timestamptz, now())
             WHERE notification_id = $1 AND status = ANY($2::text[]) RETURNING id`,
            [notificationId, CANCELABLE_JOB_STATUSES, at ?? null, status],
          )
        : await this.sql.query(
            // the jobs after afterJobId: follow parent_id links down the chain
            `WITH RECURSIVE chain AS (
               SELECT id FROM jobs WHERE parent_id = $2 AND notification_id = $1
               UNION
               SELECT j.id FROM jobs j JOIN chain c ON j.parent_id = c.id WHERE j.notification_id = $1
             )
             UPDATE jobs SET status = $5, updated_at = COALESCE($4::timestamptz, now())
             WHERE id IN (SELECT id FROM chain) AND status = ANY($3::text[]) RETURNING id`,
            [notificationId, afterJobId, CANCELABLE_JOB_STATUSES, at ?? null, status],
          );
    return rows.map((r) => r.id);
  }

  async findNextJob(parentId: string): Promise<Job | null> {
    const [row] = await this.sql.query('SELECT * FROM jobs WHERE parent_id = $1 ORDER BY created_at, id LIMIT 1', [parentId]);
    return row ? toJob(row) : null;
  }

  /** The table's rows first, then the first jobs kept on notification rows. */
  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const deleted = await deleteOldest(this.sql, jobs, before, limit, notificationFinished('notification_id'));
    return deleted < limit ? deleted + (await clearOldest(this.sql, before, limit - deleted, FIRST_JOB_RETENTION)) : deleted;
  }
}
