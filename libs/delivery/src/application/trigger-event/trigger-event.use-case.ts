import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  CLOCK,
  CallBatcher,
  Clock,
  DomainError,
  EnvironmentScope,
  InvalidRequestError,
  JOB_QUEUE,
  METRICS,
  Metrics,
  OutageLog,
  UnprocessableError,
  newId,
  noopMetrics,
} from '@app/kernel';
import { CONTEXT_REPOSITORY, ContextRepository, contextKey, parseContextPayload } from '@app/contexts';
import { TENANT_REPOSITORY, TenantRepository } from '@app/tenants';
import { WORKFLOW_REPOSITORY, Workflow, WorkflowRepository } from '@app/workflows';
import { RecipientProblems, parseActor, parseRecipients, parseTenant } from '../../domain/recipients';
import { TriggerRecord } from '../../domain/trigger';
import { TRIGGER_REPOSITORY, TriggerRepository } from '../../ports/trigger.repository.port';
import { JsonSchemas } from '../json-schemas';
import { FANOUT_QUEUE, PIPELINE_JOB_OPTIONS, PipelineQueue } from '../queues';
import { FanOutJobGathering } from './fan-out-job-gathering';

export interface TriggerEventCommand {
  scope: EnvironmentScope;
  name: string;
  /** Recipients; left out (and ignored) for a broadcast. */
  to?: unknown;
  /** Every subscriber of the environment (`POST /v1/events/trigger/broadcast`) instead of `to`. */
  broadcast?: boolean;
  payload?: Record<string, unknown>;
  overrides?: Record<string, unknown>;
  transactionId?: string;
  actor?: unknown;
  tenant?: unknown;
  /** Novu's `context`: contexts by type, each an id or `{id, data}`; missing ones are created. */
  context?: unknown;
}

export type TriggerResultStatus = 'processed' | 'trigger_not_active' | 'no_tenant_found' | 'no_workflow_steps_defined' | 'no_workflow_active_steps_defined';

export interface TriggerEventResult {
  acknowledged: true;
  status: TriggerResultStatus;
  transactionId: string;
}

export interface TriggerEventOptions {
  /**
   * Called once the trigger only waits for the acceptance batch's insert (its validation and lookups
   * are over): a caller limiting how much work runs at once may let the next request start.
   */
  onceWaitingForStore?: () => void;
}

/** What a trigger comes to before it is accepted: its answer already, or a record to accept. */
type Prepared = { answer: TriggerEventResult } | { record: TriggerRecord; processed: () => TriggerEventResult };

export const MAX_PAYLOAD_BYTES = 512 * 1024;
/** Triggers one fan-out job carries at most. */
export const MAX_TRIGGERS_PER_FANOUT_JOB = 100;
/** How long a fan-out job takes in acceptance batches that overlap it, at most (FanOutJobGathering). */
export const FANOUT_JOB_WINDOW_MS = 20;
/**
 * How long a fan-out job waits for a batch of it still writing, at most: a hung insert then holds
 * back the triggers of the batches it overlapped this long, not until the reconciler finds them.
 */
export const FANOUT_JOB_HOLD_MS = 1_000;

export class PayloadTooLargeError extends DomainError {
  constructor(bytes: number) {
    super('payload_too_large', `Payload of ${bytes} bytes exceeds the limit of ${MAX_PAYLOAD_BYTES} bytes`, 'too_large');
  }
}

export class WorkflowNotFoundError extends UnprocessableError {
  constructor(identifier: string) {
    super('workflow_not_found', 'workflow_not_found', { workflowIdentifier: identifier });
  }
}

export class InvalidTriggerError extends UnprocessableError {
  constructor(problems: RecipientProblems, body: Record<string, unknown>) {
    const errors: Record<string, { messages: string[]; value: unknown }> = {};
    for (const [path, messages] of Object.entries(problems)) {
      errors[path] = {
        messages,
        value: path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], body) ?? 'No Value Recorded',
      };
    }
    super('invalid_trigger', 'Validation Error', { errors });
  }
}

/** A payload the workflow's `payloadSchema` refuses, with `validatePayload` on (Novu: 400). */
export class PayloadValidationError extends InvalidRequestError {
  constructor(errors: { path: string; message: string }[], payload: Record<string, unknown>) {
    const fields: Record<string, { messages: string[]; value: unknown }> = {};
    for (const { path, message } of errors) {
      const keys = path.split('/').filter(Boolean);
      const value = keys.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], payload);
      (fields[['payload', ...keys].join('.')] ??= { messages: [], value: value ?? 'No Value Recorded' }).messages.push(message);
    }
    super('invalid_payload', 'The payload does not match the workflow’s payloadSchema', { errors: fields });
  }
}

/**
 * POST /v1/events/trigger, the API side: validate, persist the trigger (claiming its transactionId),
 * enqueue the fan-out, answer. Persisting before enqueueing means an accepted trigger is never
 * lost: if the enqueue fails, the reconciler finds the trigger still `accepted` and enqueues it.
 */
@Injectable()
export class TriggerEvent {
  private readonly logger = new Logger(TriggerEvent.name);
  /** An enqueue that fails or times out may still land; either way the triggers are stored. */
  private readonly enqueues = new OutageLog(this.logger, {
    down: (error) =>
      `Fan-out jobs not confirmed by the queue (${error.message}): their triggers are stored, and the workers' recovery sweep enqueues any the queue did not get after RECOVERY_AFTER_SECONDS; one line when enqueues succeed again`,
    up: 'Fan-out jobs are enqueued again',
  });
  /** The triggers accepted in one turn of the event loop are persisted together, and join one fan-out job. */
  private readonly accepts = new CallBatcher<TriggerRecord, boolean | { error: unknown }>((_, records) => this.accept(records), MAX_TRIGGERS_PER_FANOUT_JOB);
  /** The fan-out job that acceptance batches starting now join. */
  private gathering?: FanOutJobGathering;
  /** The hold of each job being gathered (FANOUT_JOB_HOLD_MS). */
  private readonly holds = new Map<FanOutJobGathering, ReturnType<typeof setTimeout>>();

  constructor(
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(TENANT_REPOSITORY) private readonly tenants: TenantRepository,
    @Inject(CONTEXT_REPOSITORY) private readonly contexts: ContextRepository,
    @Inject(TRIGGER_REPOSITORY) private readonly triggers: TriggerRepository,
    @Inject(JOB_QUEUE) private readonly queue: PipelineQueue,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly schemas: JsonSchemas,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics = noopMetrics,
  ) {}

  async execute(command: TriggerEventCommand, options: TriggerEventOptions = {}): Promise<TriggerEventResult> {
    return this.settle(await this.prepare(command), options.onceWaitingForStore);
  }

  /**
   * Several triggers of one request (`POST /v1/events/trigger/bulk`), each with its own outcome in
   * order: all are validated first, then the records of those that pass join the acceptance
   * batch together, so they share one insert and one fan-out job.
   */
  async executeMany(commands: TriggerEventCommand[], options: TriggerEventOptions = {}): Promise<PromiseSettledResult<TriggerEventResult>[]> {
    const prepared = await Promise.allSettled(commands.map((command) => this.prepare(command)));
    // Settled in one synchronous pass (nothing is awaited before `settle` joins the batch): every
    // record reaches the batcher before it flushes.
    const settled = Promise.all(
      prepared.map(async (outcome): Promise<PromiseSettledResult<TriggerEventResult>> => {
        if (outcome.status === 'rejected') return outcome;
        try {
          return { status: 'fulfilled', value: await this.settle(outcome.value) };
        } catch (reason) {
          return { status: 'rejected', reason };
        }
      }),
    );
    options.onceWaitingForStore?.();
    return settled;
  }

  /** Validation and lookups: the answer itself when the trigger stops short, else the record to accept. */
  private async prepare(command: TriggerEventCommand): Promise<Prepared> {
    const { scope } = command;
    const recipients = command.broadcast ? { recipients: { subscribers: [], topics: [] }, problems: {} } : parseRecipients(command.to);
    const actor = parseActor(command.actor);
    const tenant = parseTenant(command.tenant);
    const contexts = parseContextPayload(command.context);
    const problems = { ...recipients.problems, ...actor.problems, ...tenant.problems, ...contexts.problems };
    if (Object.keys(problems).length) throw new InvalidTriggerError(problems, command as unknown as Record<string, unknown>);
    const payload = command.payload ?? {};
    const payloadBytes = Buffer.byteLength(JSON.stringify(payload));
    if (payloadBytes > MAX_PAYLOAD_BYTES) throw new PayloadTooLargeError(payloadBytes);

    // The hot path: the repository caches lookups by trigger identifier for a moment.
    const workflow = await this.workflows.findByTriggerIdentifier(scope, command.name);
    if (!workflow) throw new WorkflowNotFoundError(command.name);
    const transactionId = command.transactionId || `txn_${newId()}`;
    const answer = (status: TriggerResultStatus): TriggerEventResult => {
      this.metrics.triggerAccepted(status);
      return { acknowledged: true, status, transactionId };
    };

    if (tenant.tenant && !(await this.tenants.findByIdentifier(scope, tenant.tenant.identifier))) return { answer: answer('no_tenant_found') };
    if (!workflow.active) return { answer: answer('trigger_not_active') };
    if (!workflow.steps.length) return { answer: answer('no_workflow_steps_defined') };
    if (!workflow.steps.some((step) => step.active)) return { answer: answer('no_workflow_active_steps_defined') };
    const checkedPayload = this.withSchemaDefaults(workflow, payload);

    const now = this.clock.now();
    // As Novu: a context the trigger names is created when missing, and takes the data it gives.
    if (contexts.entries.length) await this.contexts.upsert(scope, contexts.entries, { newId: () => newId(now.getTime()), now });
    const record: TriggerRecord = {
      id: newId(now.getTime()),
      organizationId: scope.organizationId,
      environmentId: scope.environmentId,
      transactionId,
      workflowId: workflow.id,
      workflowIdentifier: workflow.trigger.identifier,
      // parsed once, here: the fan-out reads them as they are stored
      to: recipients.recipients,
      ...(command.broadcast ? { broadcast: true as const } : {}),
      payload: checkedPayload,
      overrides: command.overrides ?? {},
      actor: actor.actor,
      tenant: tenant.tenant,
      ...(contexts.entries.length ? { contextKeys: contexts.entries.map((entry) => contextKey(entry.type, entry.identifier)) } : {}),
      status: 'accepted',
      timeOrderedIds: true,
      createdAt: now,
      updatedAt: now,
    };
    return { record, processed: () => answer('processed') };
  }

  /**
   * The payload with the defaults of the workflow's payloadSchema filled in; with validatePayload, one
   * the schema refuses is refused (400, each field's problems). The schema compiles once per workflow version.
   */
  private withSchemaDefaults(workflow: Workflow, payload: Record<string, unknown>): Record<string, unknown> {
    if (!workflow.payloadSchema) return payload;
    const filled = structuredClone(payload);
    const check = this.schemas.check(`payload:${workflow.id}:${workflow.revision}`, workflow.payloadSchema, filled, { fillDefaults: true });
    if (!check.valid && workflow.validatePayload) throw new PayloadValidationError(check.errors, payload);
    return filled;
  }

  /** Joins the acceptance batch at once (no await before it), then answers. */
  private async settle(prepared: Prepared, onceWaitingForStore?: () => void): Promise<TriggerEventResult> {
    if ('answer' in prepared) return prepared.answer;
    const accepting = this.accepts.run('', prepared.record);
    onceWaitingForStore?.();
    // A repeated transactionId is acknowledged the same way and delivers nothing.
    const accepted = await accepting;
    if (typeof accepted !== 'boolean') throw accepted.error;
    return prepared.processed();
  }

  /**
   * Persists triggers accepted together, then hands those that were new to a fan-out job, shared
   * with the batches whose inserts overlap this one (FanOutJobGathering; a queue job per trigger
   * would cost the worker more than many of the deliveries). Each record names that job, so the
   * reconciler can tell whether the queue still holds it. The answer waits for the insert only:
   * once it has committed the trigger is durable, and a lost enqueue is the reconciler's to redo,
   * so the queue's round trip stays off the caller's latency.
   */
  private async accept(records: TriggerRecord[]): Promise<(boolean | { error: unknown })[]> {
    const job = this.joinFanOutJob(records);
    // Each record on its own: one the store refuses fails alone, and the others still reach the
    // queue now, in this job, rather than waiting for the reconciler.
    const inserted = await Promise.all(
      records.map((record) => this.triggers.insertIfAbsent({ ...record, fanOutJobId: job.id }).catch((error: unknown) => ({ error }))),
    );
    const stored = records.filter((_, index) => inserted[index] === true).map((record) => record.id);
    const outcome = job.written(stored);
    if (outcome === 'add') this.enqueue(job);
    else if (outcome === 'late') this.add(stored.map((id) => ({ id, triggerIds: [id] })));
    return inserted;
  }

  private joinFanOutJob(records: TriggerRecord[]): FanOutJobGathering {
    const now = this.clock.now().getTime();
    if (!this.gathering?.takes(records.length, now)) {
      const job = (this.gathering = new FanOutJobGathering(records[0].id, now, MAX_TRIGGERS_PER_FANOUT_JOB, FANOUT_JOB_WINDOW_MS));
      const hold = setTimeout(() => {
        if (job.expire()) this.enqueue(job);
      }, FANOUT_JOB_HOLD_MS);
      hold.unref();
      this.holds.set(job, hold);
    }
    this.gathering.join(records.length);
    return this.gathering;
  }

  private enqueue(job: FanOutJobGathering): void {
    if (this.gathering === job) this.gathering = undefined;
    clearTimeout(this.holds.get(job));
    this.holds.delete(job);
    this.add([{ id: job.id, triggerIds: job.triggerIds }]);
  }

  /** Adds fan-out jobs; a failed add is the reconciler's to redo (the triggers are stored `accepted`). */
  private add(jobs: { id: string; triggerIds: string[] }[]): void {
    const filled = jobs.filter(({ triggerIds }) => triggerIds.length);
    if (!filled.length) return;
    this.enqueues.watch(
      filled.length === 1
        ? this.queue.add(FANOUT_QUEUE, { id: filled[0].id, data: { triggerIds: filled[0].triggerIds }, ...PIPELINE_JOB_OPTIONS })
        : this.queue.addBulk(
            FANOUT_QUEUE,
            filled.map(({ id, triggerIds }) => ({ id, data: { triggerIds }, ...PIPELINE_JOB_OPTIONS })),
          ),
    );
  }
}
