import { Inject, Injectable } from '@nestjs/common';
import { CallBatcher, EnvironmentScope } from '@app/kernel';
import { TriggerRecord, TriggerRepository, TriggerStatus } from '@app/delivery';
import { SQL_CLIENT, SqlClient, textArray } from '../sql-client';
import { param, raw, sql } from '../sql-statement';
import { JsonRow, columnSpecs } from '../sql-table';
import { TriggerRow, triggers } from '../tables';
import { deleteOldest } from './sql-retention';
import { insertFromJson, jsonRows, setPresent } from './sql-rows';

export function toTriggerRecord(row: TriggerRow): TriggerRecord {
  return setPresent<TriggerRecord>(
    {
      id: row.id,
      organizationId: row.organization_id,
      environmentId: row.environment_id,
      transactionId: row.transaction_id,
      workflowId: row.workflow_id,
      workflowIdentifier: row.workflow_identifier,
      to: row.recipients,
      payload: row.payload,
      overrides: row.overrides,
      status: row.status,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    },
    {
      actor: row.actor,
      tenant: row.tenant,
      contextKeys: row.context_keys,
      fanOutJobId: row.fanout_job_id,
      broadcast: row.broadcast || null,
      timeOrderedIds: row.time_ordered_ids || null,
    },
  );
}

/** Statuses a cancel may still move (a canceled trigger stays as it is). */
const CANCELABLE_TRIGGER_STATUSES: TriggerStatus[] = ['accepted', 'processed'];

/** Statuses after which nothing reads a trigger again (retention may delete it). */
const FINISHED_TRIGGER_STATUSES: TriggerStatus[] = ['processed', 'canceled', 'failed'];

const COLUMNS = columnSpecs(triggers);

const toRow = (t: TriggerRecord): JsonRow<typeof triggers> => ({
  id: t.id,
  organization_id: t.organizationId,
  environment_id: t.environmentId,
  transaction_id: t.transactionId,
  workflow_id: t.workflowId,
  workflow_identifier: t.workflowIdentifier,
  recipients: t.to,
  broadcast: t.broadcast,
  payload: t.payload,
  overrides: t.overrides,
  actor: t.actor,
  tenant: t.tenant,
  context_keys: t.contextKeys,
  status: t.status,
  fanout_job_id: t.fanOutJobId,
  time_ordered_ids: t.timeOrderedIds,
  created_at: t.createdAt,
  updated_at: t.updatedAt,
});

/**
 * A trigger inserted `accepted` is listed in triggers_pending (migration 26) by the same statement;
 * a row clashing with any unique constraint (its id, or its environment's transactionId) is skipped.
 */
const INSERT_TRIGGERS = sql`WITH inserted AS (${insertFromJson('triggers', COLUMNS, param('rows'))} ON CONFLICT DO NOTHING RETURNING id, status, created_at),
  pending AS (INSERT INTO triggers_pending (created_at, id) SELECT created_at, id FROM inserted WHERE status = 'accepted')
  SELECT id FROM inserted`;

/**
 * After `moved` (a CTE of the triggers an UPDATE moved, RETURNING id, created_at, status): the listing
 * holds exactly the accepted triggers, so those that left `accepted` leave it and any that entered join it.
 */
const KEEP_PENDING_LISTED = raw(`left_pending AS (
    DELETE FROM triggers_pending p USING moved m WHERE p.created_at = m.created_at AND p.id = m.id AND m.status <> 'accepted'
  ), entered_pending AS (
    INSERT INTO triggers_pending (created_at, id) SELECT created_at, id FROM moved WHERE status = 'accepted' ON CONFLICT DO NOTHING
  )`);

@Injectable()
export class SqlTriggerRepository implements TriggerRepository {
  /** Concurrent trigger requests share one insert; a transactionId taken (by anyone, even in the same batch) loses. */
  private readonly inserts = new CallBatcher<TriggerRecord, boolean>(async (_, batch) => {
    const rows = await this.sql.queryPrepared<Pick<TriggerRow, 'id'>>(INSERT_TRIGGERS.bind({ rows: jsonRows(batch.map(toRow), COLUMNS) }));
    const inserted = new Set(rows.map((row) => row.id));
    return batch.map((t) => inserted.has(t.id));
  });
  private readonly byId = new CallBatcher<string, TriggerRecord | null>(async (_, ids) => {
    const rows = await this.sql.query<TriggerRow>(sql`SELECT * FROM triggers WHERE id = ANY(${textArray(ids)}::text[])`);
    const found = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => {
      const row = found.get(id);
      return row ? toTriggerRecord(row) : null;
    });
  });
  private readonly statusChanges = new CallBatcher<{ id: string; from: TriggerStatus[]; to: TriggerStatus; at?: Date }, boolean>(async (_, inputs) => {
    const { from, to, at } = inputs[0];
    const ids = inputs.map((input) => input.id);
    const rows = await this.sql.query<Pick<TriggerRow, 'id'>>(
      sql`WITH moved AS (
         UPDATE triggers SET status = ${to}, updated_at = COALESCE(${at ?? null}::timestamptz, now()) WHERE id = ANY(${textArray(ids)}::text[]) AND status = ANY(${from}::text[])
         RETURNING id, created_at, status
       ), ${KEEP_PENDING_LISTED}
       SELECT id FROM moved`,
    );
    const moved = new Set(rows.map((row) => row.id));
    return ids.map((id) => moved.delete(id)); // the same trigger twice in one batch moved once
  });

  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  insertIfAbsent(t: TriggerRecord): Promise<boolean> {
    return this.inserts.run('', t);
  }

  findById(id: string): Promise<TriggerRecord | null> {
    return this.byId.run('', id);
  }

  async findByTransactionId(scope: EnvironmentScope, transactionId: string): Promise<TriggerRecord | null> {
    const [row] = await this.sql.query<TriggerRow>(
      sql`SELECT * FROM triggers WHERE environment_id = ${scope.environmentId} AND organization_id = ${scope.organizationId} AND transaction_id = ${transactionId}`,
    );
    return row ? toTriggerRecord(row) : null;
  }

  async markStatus(id: string, from: TriggerStatus[], to: TriggerStatus, at?: Date): Promise<boolean> {
    if (from.length === 0) return false;
    return this.statusChanges.run(JSON.stringify([from, to, at ?? null]), { id, from, to, at });
  }

  async findStaleAccepted(olderThan: Date, limit: number): Promise<TriggerRecord[]> {
    const rows = await this.sql.query<TriggerRow>(
      sql`SELECT t.* FROM triggers_pending p JOIN triggers t ON t.id = p.id
       WHERE p.created_at < ${olderThan} AND t.status = 'accepted' ORDER BY p.created_at, p.id LIMIT ${limit}`,
    );
    return rows.map(toTriggerRecord);
  }

  async cancel(scope: EnvironmentScope, transactionId: string, at?: Date): Promise<boolean> {
    const rows = await this.sql.query<Pick<TriggerRow, 'id'>>(
      sql`WITH moved AS (
         UPDATE triggers SET status = 'canceled', updated_at = COALESCE(${at ?? null}::timestamptz, now())
         WHERE environment_id = ${scope.environmentId} AND organization_id = ${scope.organizationId} AND transaction_id = ${transactionId}
           AND status = ANY(${CANCELABLE_TRIGGER_STATUSES}::text[]) RETURNING id, created_at, status
       ), ${KEEP_PENDING_LISTED}
       SELECT id FROM moved`,
    );
    return rows.length === 1;
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.sql, triggers, before, limit, sql`r.status = ANY(${FINISHED_TRIGGER_STATUSES}::text[])`);
  }
}
