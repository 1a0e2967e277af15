import { Inject, Injectable } from '@nestjs/common';
import { CallBatcher } from '@app/kernel';
import { ChainChanges, ChainRepository, ChainWrite, ChainWriteResult, Job, JobMove, Message, NewChain, isTerminalJobStatus } from '@app/delivery';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { Sql, param, raw, sql } from '../sql-statement';
import { MessageRow } from '../tables';
import { EXECUTION_DETAIL_COLUMNS, toExecutionDetailRow, toJobDetailEntry } from './sql-execution-detail.repository';
import { JOB_COLUMNS, leaveOutFirstJobDefaults, toJobRow } from './sql-job.repository';
import { MESSAGE_COLUMNS, toMessage, toMessageRow } from './sql-message.repository';
import { NOTIFICATION_COLUMNS, toNotificationRow } from './sql-notification.repository';
import { ColumnSpec, MAX_ROWS_PER_STATEMENT, insertFromJson, isoTime, jsonRows, jsonRowsSource } from './sql-rows';

// ---------------------------------------------------------------- new chains: one INSERT per batch

/**
 * The job columns a new notification's jobs are written with: their own, and the details written with them;
 * `output` last, since a step sets it when it runs, after the insert.
 */
const NEW_JOB_COLUMNS: readonly ColumnSpec[] = [...JOB_COLUMNS, ['details', 'jsonb'], ['output', 'jsonb']];

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

/** insertFromJson for the rows of the notifications `created` wrote: a column of `inherits` left out of a row is its notification's (`n`). */
function insertInheriting(table: string, columns: readonly ColumnSpec[], rows: unknown, inherits: Inherited): Sql {
  const names = columns.map(([name]) => name);
  const from = new Map(inherits);
  const values = names.map((name) => (from.has(name) ? `COALESCE(r.${name}, n.${from.get(name)})` : `r.${name}`));
  return sql`INSERT INTO ${raw(table)} (${raw(names.join(', '))}) SELECT ${raw(values.join(', '))} FROM ${jsonRowsSource(columns, rows)} JOIN created n ON n.id = r.notification_id`;
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
const INSERT_NEW_CHAINS = sql`WITH created AS (${insertFromJson('notifications', NOTIFICATION_COLUMNS, param('notifications'))} ON CONFLICT (id) DO NOTHING RETURNING id, ${raw(INHERITED_COLUMNS.join(', '))}),
  jobs_written AS (${insertInheriting('jobs', NEW_JOB_COLUMNS, param('jobs'), JOB_INHERITS)} ON CONFLICT (id) DO NOTHING),
  messages_written AS (${insertInheriting('messages', MESSAGE_COLUMNS, param('messages'), MESSAGE_INHERITS)} ON CONFLICT (id) DO NOTHING),
  details_written AS (${insertFromJson('execution_details', EXECUTION_DETAIL_COLUMNS, param('details'), raw('r.notification_id IN (SELECT id FROM created)'))} ON CONFLICT (id) DO NOTHING)
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

/** The rows of one batch of new chains, per parameter of INSERT_NEW_CHAINS. */
interface NewChainRows {
  notifications: Record<string, unknown>[];
  jobs: Record<string, unknown>[];
  messages: Record<string, unknown>[];
  details: Record<string, unknown>[];
}

/**
 * Adds a new chain's rows. Each job's row keeps the details written with it (jobs.details, migration
 * 23): one row per delivery fewer. A detail of none of its jobs (or naming another scope) stays a row
 * of execution_details. A first job finished as written goes on the notification's row instead
 * (keepsOnNotification): one row fewer again.
 */
function addNewChainRows({ notification, jobs, messages, details }: NewChain, rows: NewChainRows): void {
  const notificationRow = toNotificationRow(notification);
  rows.notifications.push(notificationRow);
  const onJob = new Map<string, Record<string, unknown>[]>();
  const byId = new Map(jobs.map((job) => [job.id, job]));
  for (const detail of details) {
    const job = byId.get(detail.jobId);
    const entry = job && toJobDetailEntry(detail, job);
    if (!entry) {
      rows.details.push(toExecutionDetailRow(detail));
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
      rows.jobs.push(row);
      continue;
    }
    row.notification_id = undefined;
    notificationRow.first_job = leaveOutFirstJobDefaults(row);
  }
  for (const message of messages) rows.messages.push(leaveOutInherited(toMessageRow(message), notificationRow, MESSAGE_INHERITS));
}

// ---------------------------------------------------------------- changes to stored chains: one statement per batch

/** A job's move: its status and the fields a step changes, written whole, `from` the status it must still have. */
const MOVE_COLUMNS: readonly ColumnSpec[] = [
  ['w', 'integer'],
  ['lead', 'boolean'],
  ['id', 'text'],
  ['from_status', 'text'],
  ['status', 'text'],
  ['attempts', 'integer'],
  ['updated_at', 'timestamptz'],
  ['provider_id', 'text'],
  ['digest', 'jsonb'],
  ['digest_bucket_key', 'text'],
  ['merged_digest_id', 'text'],
  ['run_at', 'timestamptz'],
  ['schedule_extensions_count', 'integer'],
  ['error', 'jsonb'],
  ['output', 'jsonb'],
];
const MOVED_FIELDS = MOVE_COLUMNS.slice(4).map(([name]) => name);

/** A message's delivery as the session left it. */
const DELIVERY_COLUMNS: readonly ColumnSpec[] = [
  ['w', 'integer'],
  ['id', 'text'],
  ['status', 'text'],
  ['updated_at', 'timestamptz'],
  ['delivered_at', 'jsonb'],
  ['identifier', 'text'],
  ['error_id', 'text'],
  ['error_text', 'text'],
];
const DIGESTED_COLUMNS: readonly ColumnSpec[] = [
  ['w', 'integer'],
  ['id', 'text'],
  ['digested_notification_id', 'text'],
];
const withWrite = (columns: readonly ColumnSpec[]): readonly ColumnSpec[] => [['w', 'integer'], ...columns];
const CHANGED_MESSAGE_COLUMNS = withWrite(MESSAGE_COLUMNS);
const CHANGED_DETAIL_COLUMNS = withWrite(EXECUTION_DETAIL_COLUMNS);

/** `INSERT INTO table` the rows of the jsonb parameter `rows` (their `w` column left out) of the writes applied. */
function insertApplied(table: string, columns: readonly ColumnSpec[], rows: unknown): Sql {
  const names = raw(
    columns
      .map(([name]) => name)
      .filter((name) => name !== 'w')
      .join(', '),
  );
  return sql`INSERT INTO ${raw(table)} (${names}) SELECT ${names} FROM ${jsonRowsSource(columns, rows)} WHERE r.w IN (SELECT w FROM applied) ON CONFLICT (id) DO NOTHING`;
}

const setMoved = raw(MOVED_FIELDS.map((name) => `${name} = r.${name}`).join(', '));
/**
 * One statement: the lead moves first (compare-and-set); a write is applied when its lead's move held
 * or it has none (`unguarded`); only an applied write's other moves, messages, deliveries, details and digest
 * link go in. Each move is a compare-and-set of its own, on the status the session last knew.
 */
const WRITE_CHANGES = sql`WITH guard AS (
    UPDATE jobs j SET ${setMoved} FROM ${jsonRowsSource(MOVE_COLUMNS, param('moves'))}
    WHERE r.lead AND j.id = r.id AND j.status = r.from_status RETURNING r.w, j.id
  ),
  applied AS (SELECT w FROM guard UNION ALL SELECT unnest(${param('unguarded')}::int[])),
  moved AS (
    UPDATE jobs j SET ${setMoved} FROM ${jsonRowsSource(MOVE_COLUMNS, param('moves'))}
    WHERE NOT r.lead AND j.id = r.id AND j.status = r.from_status AND r.w IN (SELECT w FROM applied) RETURNING j.id
  ),
  messages_written AS (${insertApplied('messages', CHANGED_MESSAGE_COLUMNS, param('messages'))} RETURNING id),
  delivered AS (
    UPDATE messages m SET status = r.status, updated_at = r.updated_at, delivered_at = r.delivered_at, identifier = r.identifier,
      error_id = r.error_id, error_text = r.error_text
    FROM ${jsonRowsSource(DELIVERY_COLUMNS, param('deliveries'))} WHERE m.id = r.id AND r.w IN (SELECT w FROM applied)
  ),
  details_written AS (${insertApplied('execution_details', CHANGED_DETAIL_COLUMNS, param('details'))}),
  digested AS (
    UPDATE notifications n SET digested_notification_id = r.digested_notification_id, updated_at = now()
    FROM ${jsonRowsSource(DIGESTED_COLUMNS, param('digested'))} WHERE n.id = r.id AND r.w IN (SELECT w FROM applied)
  )
SELECT 'w' AS kind, w::text AS id FROM applied
UNION ALL SELECT 'j', id FROM guard UNION ALL SELECT 'j', id FROM moved
UNION ALL SELECT 'm', id FROM messages_written`;

const moveRow = (w: number, lead: boolean, { job, from }: JobMove): Record<string, unknown> => ({
  w,
  lead,
  id: job.id,
  from_status: from,
  status: job.status,
  attempts: job.attempts,
  updated_at: isoTime(job.updatedAt),
  provider_id: job.providerId,
  digest: job.digest,
  digest_bucket_key: job.digestBucketKey,
  merged_digest_id: job.mergedDigestId,
  run_at: isoTime(job.runAt),
  schedule_extensions_count: job.scheduleExtensionsCount,
  error: job.error,
  output: job.output,
});

const deliveryRow = (w: number, m: Message): Record<string, unknown> => ({
  w,
  id: m.id,
  status: m.status,
  updated_at: isoTime(m.updatedAt),
  delivered_at: m.deliveredAt.map(isoTime),
  identifier: m.identifier,
  error_id: m.errorId,
  error_text: m.errorText,
});

/** The job and message ids a write changes: two writes that share one cannot share a statement. */
const idsOf = (write: ChainChanges): string[] => [
  ...(write.lead ? [write.lead.job.id] : []),
  ...write.moves.map((move) => move.job.id),
  ...write.messages.map((message) => message.id),
  ...write.deliveries.map((message) => message.id),
];

/** The writes in rounds in which no job or message is changed by two of them (a statement may change a row once). */
function rounds(writes: ChainChanges[]): ChainChanges[][] {
  const result: { writes: ChainChanges[]; ids: Set<string> }[] = [];
  for (const write of writes) {
    const ids = idsOf(write);
    let round = result.find((candidate) => !ids.some((id) => candidate.ids.has(id)));
    if (!round) result.push((round = { writes: [], ids: new Set() }));
    round.writes.push(write);
    ids.forEach((id) => round.ids.add(id));
  }
  return result.map((round) => round.writes);
}

const NOTHING_WRITTEN: ChainWriteResult = { written: false, moved: new Set(), messages: new Map() };

/**
 * ChainRepository on PostgreSQL and PGlite. New chains go in with one INSERT per batch (rows laid out
 * as the reads expect: first jobs finished as written on their notification's row, details written
 * with a job on its row, shared values taken from the notification); changes to stored chains with
 * one statement per batch whose compare-and-sets decide what of each write goes in.
 */
@Injectable()
export class SqlChainRepository implements ChainRepository {
  private readonly newChains = new CallBatcher<NewChain[], ChainWriteResult[]>(
    async (_, calls) => {
      // the same notification in two calls: only the first caller's rows go in
      const taken = new Set<string>();
      const kept = calls.map((chains) => chains.map((chain) => !taken.has(chain.notification.id) && !!taken.add(chain.notification.id)));
      const rows: NewChainRows = { notifications: [], jobs: [], messages: [], details: [] };
      calls.forEach((chains, call) => chains.forEach((chain, index) => kept[call][index] && addNewChainRows(chain, rows)));
      const created = new Set(
        (
          await this.sql.queryPrepared<{ id: string }>(
            INSERT_NEW_CHAINS.bind({
              notifications: jsonRows(rows.notifications, NOTIFICATION_COLUMNS),
              jobs: jsonRows(rows.jobs, NEW_JOB_COLUMNS),
              messages: jsonRows(rows.messages, MESSAGE_COLUMNS),
              details: jsonRows(rows.details, EXECUTION_DETAIL_COLUMNS),
            }),
          )
        ).map((row) => row.id),
      );
      return calls.map((chains, call) =>
        chains.map((chain, index) =>
          kept[call][index] && created.has(chain.notification.id)
            ? {
                written: true,
                moved: new Set(chain.jobs.map((job) => job.id)),
                messages: new Map(chain.messages.map((message) => [message.id, { message, created: true }])),
              }
            : NOTHING_WRITTEN,
        ),
      );
    },
    MAX_ROWS_PER_STATEMENT,
    (chains) => chains.length,
  );

  private readonly changes = new CallBatcher<ChainChanges[], ChainWriteResult[]>(
    async (_, calls) => {
      const results = new Map<ChainChanges, ChainWriteResult>();
      for (const round of rounds(calls.flat())) for (const [index, result] of (await this.writeChanges(round)).entries()) results.set(round[index], result);
      return calls.map((writes) => writes.map((write) => results.get(write)!));
    },
    MAX_ROWS_PER_STATEMENT,
    (writes) => writes.length,
  );

  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async write(writes: ChainWrite[]): Promise<ChainWriteResult[]> {
    const fresh = writes.filter((write): write is NewChain => write.kind === 'new');
    const changed = writes.filter((write): write is ChainChanges => write.kind === 'changes');
    const [freshResults, changedResults] = await Promise.all([
      fresh.length ? this.newChains.run('', fresh) : [],
      changed.length ? this.changes.run('', changed) : [],
    ]);
    const byWrite = new Map<ChainWrite, ChainWriteResult>([
      ...fresh.map((write, index) => [write, freshResults[index]] as const),
      ...changed.map((write, index) => [write, changedResults[index]] as const),
    ]);
    return writes.map((write) => byWrite.get(write)!);
  }

  /** One statement for writes that change no row twice. */
  private async writeChanges(writes: ChainChanges[]): Promise<ChainWriteResult[]> {
    const moves: Record<string, unknown>[] = [];
    const messages: Record<string, unknown>[] = [];
    const deliveries: Record<string, unknown>[] = [];
    const details: Record<string, unknown>[] = [];
    const digested: Record<string, unknown>[] = [];
    const unguarded: number[] = [];
    writes.forEach((write, w) => {
      if (write.lead) moves.push(moveRow(w, true, write.lead));
      else unguarded.push(w);
      for (const move of write.moves) moves.push(moveRow(w, false, move));
      for (const message of write.messages) messages.push({ w, ...toMessageRow(message) });
      for (const message of write.deliveries) deliveries.push(deliveryRow(w, message));
      for (const detail of write.details) details.push({ w, ...toExecutionDetailRow(detail) });
      if (write.digestedInto) digested.push({ w, id: write.notificationId, digested_notification_id: write.digestedInto });
    });
    const rows = await this.sql.query<{ kind: 'w' | 'j' | 'm'; id: string }>(
      WRITE_CHANGES.bind({
        moves: jsonRows(moves, MOVE_COLUMNS),
        messages: jsonRows(messages, CHANGED_MESSAGE_COLUMNS),
        deliveries: jsonRows(deliveries, DELIVERY_COLUMNS),
        details: jsonRows(details, CHANGED_DETAIL_COLUMNS),
        digested: jsonRows(digested, DIGESTED_COLUMNS),
        unguarded,
      }),
    );
    const applied = new Set(rows.filter((row) => row.kind === 'w').map((row) => Number(row.id)));
    const moved = new Set(rows.filter((row) => row.kind === 'j').map((row) => row.id));
    const created = new Set(rows.filter((row) => row.kind === 'm').map((row) => row.id));
    // a message that existed is read as stored: a separate statement sees a row a concurrent one committed
    const missing = writes.flatMap((write, w) => (applied.has(w) ? write.messages.filter((message) => !created.has(message.id)).map((m) => m.id) : []));
    const existing = missing.length ? await this.sql.query<MessageRow>(sql`SELECT * FROM messages WHERE id = ANY(${missing}::text[])`) : [];
    const found = new Map(existing.map((row) => [row.id, toMessage(row)]));
    return writes.map((write, w) =>
      applied.has(w)
        ? {
            written: true,
            moved: new Set([...(write.lead ? [write.lead.job.id] : []), ...write.moves.map((move) => move.job.id)].filter((id) => moved.has(id))),
            messages: new Map(
              write.messages.map((message) => [
                message.id,
                created.has(message.id) ? { message, created: true } : { message: found.get(message.id) ?? message, created: false },
              ]),
            ),
          }
        : NOTHING_WRITTEN,
    );
  }
}
