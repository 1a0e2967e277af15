import { Inject, Injectable } from '@nestjs/common';
import { DomainError, EnvironmentScope, RetryableJobError } from '@app/kernel';
import { SUBSCRIBER_REPOSITORY, Subscriber, SubscriberRepository } from '@app/subscribers';
import { WORKFLOW_REPOSITORY, WorkflowRepository, WorkflowStep } from '@app/workflows';
import { Attempt } from '../../domain/attempt';
import { DETAIL, ExecutionDetailSource } from '../../domain/execution-detail';
import { Job, isTerminalJobStatus } from '../../domain/job';
import { StepType, isChannelStep } from '../../domain/step-type';
import { JOB_REPOSITORY, JobRepository } from '../../ports/job.repository.port';
import { StepJobData, stepJob } from '../queues';
import { StepRecorder } from './channels/step-recorder';
import { StepChain, failureStopsChain } from './step-chain';
import { StepContext } from './step-context';
import { StepGate } from './step-gate';
import { HandlersByType, StepHandlers } from './step-handlers';
import { StepOutcome } from './step-outcome';
import { StepSources } from './step-sources';
import { earlierStepOutputs, hasEarlierOutputs } from './step-outputs';
import { RunAheadWrites, StoreStepWrites } from './step-writes';

export interface RunStepCommand extends Pick<StepJobData, 'jobId' | 'phase'> {
  attempt: Attempt;
}

/** Rows the caller has just built, written or read (the fan-out running the first steps it creates): saves reads. A stale value is never passed. */
export interface KnownRows {
  job?: Job;
  subscriber?: Subscriber;
}

/** Why a step failed, as its execution detail says; `recorded` when the step has recorded it already. */
interface Failure {
  reason: string;
  source?: ExecutionDetailSource;
  raw?: unknown;
  recorded?: boolean;
  /** The provider the step went through, kept on the job as on its message. */
  providerId?: string;
}

/**
 * Runs one job of a notification's chain: loads it, moves it to `running` (compare-and-set, so a
 * redelivered queue job is harmless), applies step filters and conditions, preferences and quiet hours, hands it
 * to the handler of its step type (channel, delay, digest), and settles what the handler answers:
 * the job's end, and the rest of the chain going on or canceled.
 */
@Injectable()
export class RunStep {
  constructor(
    @Inject(JOB_REPOSITORY) private readonly jobs: JobRepository,
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    private readonly storeWrites: StoreStepWrites,
    private readonly handlers: StepHandlers,
    private readonly gate: StepGate,
    private readonly chain: StepChain,
    private readonly recorder: StepRecorder,
    private readonly sources: StepSources,
  ) {}

  /** Runs the job against the store and the queue. */
  execute(command: RunStepCommand, known: KnownRows = {}): Promise<void> {
    return this.run(command, known, this.storeWrites, this.handlers.stored);
  }

  /** Whether a step of this type may run against a chain not written yet (runAhead). */
  canRunAhead(type: StepType): boolean {
    return this.handlers.runAhead[type] !== undefined;
  }

  /** Runs a step that canRunAhead against `chain`: the writes of a chain the fan-out has built but not written. */
  async runAhead(command: RunStepCommand, known: KnownRows & { job: Job }, chain: RunAheadWrites): Promise<void> {
    if (!this.canRunAhead(known.job.type)) throw new Error(`A ${known.job.type} step cannot run before its chain is written`);
    return this.run(command, known, chain, this.handlers.runAhead);
  }

  /** The queue gave up on this job (unexpected errors on every attempt): record it failed rather than leave it running. */
  async giveUp(jobId: string, reason: string): Promise<void> {
    const job = await this.jobs.findById(jobId);
    if (!job || isTerminalJobStatus(job.status)) return;
    await this.fail({ writes: this.storeWrites, job }, { reason: `Step failed after its last attempt: ${reason}` });
  }

  private async run<W extends RunAheadWrites>(command: RunStepCommand, known: KnownRows, writes: W, handlers: HandlersByType<W>): Promise<void> {
    const job = known.job?.id === command.jobId ? known.job : await this.jobs.findById(command.jobId);
    if (!job) return;
    if (isTerminalJobStatus(job.status)) return this.resumeChain(job);
    // A delayed job only resumes through its wake-up, never through a stray redelivery.
    if (job.status === 'delayed' && command.phase !== 'wake') return;
    const scope: EnvironmentScope = { organizationId: job.organizationId, environmentId: job.environmentId };
    const workflow = await this.workflows.findByIdIncludingDeleted(scope, job.workflowId);
    const step = workflow?.steps.find((candidate) => candidate.id === job.stepId);
    const subscriber =
      known.subscriber?.subscriberId === job.externalSubscriberId
        ? known.subscriber
        : await this.subscribers.findBySubscriberId(scope, job.externalSubscriberId);
    if (!workflow || !step || !subscriber) return this.fail({ writes, job }, { reason: 'The workflow step or the subscriber no longer exists' });
    if (!(await writes.transition(job.id, 'running'))) return;
    const context: StepContext<W> = { scope, job, workflow, step, subscriber, writes, attempt: command.attempt, now: this.recorder.now() };
    if (job.actorId) context.actor = (await this.subscribers.findBySubscriberId(scope, job.actorId)) ?? undefined;
    if (hasEarlierOutputs(workflow, step.id))
      context.steps = earlierStepOutputs(workflow, await this.jobs.findByNotificationIds(scope, [job.notificationId]), job.id);
    await this.sources.load(context);

    const handler = handlers[job.type];
    try {
      if (command.phase === 'wake' && handler?.wake) return await this.settle(context, await handler.wake(context));
      // A wake-up of a deferred channel step passed its filters before it was deferred.
      if (command.phase !== 'wake' && !(await this.gate.passesFilters(context))) return;
      if (!handler) return await this.fail(context, { reason: `Unsupported step type ${job.type}` });
      if (isChannelStep(job.type) && !(await this.gate.passesPreferences(context))) return;
      if (isChannelStep(job.type)) context.step = await this.gate.selectVariant(context);
      return await this.settle(context, await handler.run(context));
    } catch (error) {
      if (error instanceof RetryableJobError) {
        await writes.transition(job.id, 'queued', { attempts: command.attempt.number });
        throw error;
      }
      if (error instanceof DomainError) return this.fail(context, { reason: error.message, source: 'Payload', raw: { code: error.code, ...error.details } });
      throw error;
    }
  }

  private async settle(context: StepContext<RunAheadWrites>, outcome: StepOutcome): Promise<void> {
    const { job, writes } = context;
    switch (outcome.kind) {
      case 'completed':
      case 'skipped':
        await writes.transition(
          job.id,
          outcome.kind === 'completed' ? 'completed' : 'canceled',
          outcome.providerId ? { providerId: outcome.providerId } : undefined,
        );
        return this.chain.handOn(writes, job);
      case 'failed':
        return this.fail(context, { reason: outcome.reason, recorded: true, providerId: outcome.providerId });
      case 'failover':
        // A fresh queue job: the fallback integration gets retries of its own.
        await writes.transition(job.id, 'queued', { attempts: 0 });
        return writes.enqueue(stepJob(outcome.queueJobId, { jobId: job.id }, outcome.delayMs));
      case 'ended':
        return this.chain.handOn(writes, job, outcome.digestEvents);
      case 'merged':
        // As Novu: the rest of a merged digest's chain is `merged` too, not canceled.
        return this.chain.cancelRest(writes, job, { status: 'merged' });
      case 'throttled':
        await writes.transition(job.id, 'skipped');
        return this.skipAfterThrottle(writes, job);
      case 'waiting':
        return;
    }
  }

  /** The rest of a chain a throttle step stopped: `skipped`, as Novu, each saying why. */
  private skipAfterThrottle(writes: RunAheadWrites, job: Job): Promise<void> {
    return this.chain.cancelRest(writes, job, { status: 'skipped', detail: DETAIL.STEP_SKIPPED_BY_THROTTLE });
  }

  /** `at.step` is undefined when the workflow step is gone. */
  private async fail(at: { writes: RunAheadWrites; job: Job; step?: WorkflowStep }, failure: Failure): Promise<void> {
    const { writes, job } = at;
    await writes.transition(job.id, 'failed', { error: { message: failure.reason }, ...(failure.providerId ? { providerId: failure.providerId } : {}) });
    if (!failure.recorded) await this.recorder.detail(at, 'Failed', failure.reason, { raw: failure.raw, source: failure.source ?? 'Internal' });
    if (failureStopsChain(job, at.step)) return this.chain.cancelRest(writes, job, { detail: DETAIL.STEP_CANCELED_PREVIOUS_FAILED });
    return this.chain.handOn(writes, job);
  }

  /**
   * A redelivered job that has already ended: the worker that ended it may have crashed before it
   * handed the chain on (next job still pending, or queued but never added to the queue), so do
   * that part again. Everything here is idempotent; normally it finds the next job already moving.
   */
  private async resumeChain(job: Job): Promise<void> {
    const writes = this.storeWrites;
    if (job.status === 'merged') return this.chain.cancelRest(writes, job, { status: 'merged' });
    // A skipped throttle step stopped its chain (a skipped digest lets it go on).
    if (job.status === 'skipped' && job.type === 'throttle') return this.skipAfterThrottle(writes, job);
    if (job.status === 'failed') {
      const workflow = await this.workflows.findByIdIncludingDeleted({ organizationId: job.organizationId, environmentId: job.environmentId }, job.workflowId);
      const step = workflow?.steps.find((candidate) => candidate.id === job.stepId);
      if (failureStopsChain(job, step)) return this.chain.cancelRest(writes, job, { detail: DETAIL.STEP_CANCELED_PREVIOUS_FAILED });
    }
    const next = await this.jobs.findNextJob(job.id);
    // `queued` but maybe never added: the crash came between the two (adding again is a no-op if it landed).
    if (next?.status === 'queued') await writes.enqueue(stepJob(next.id, { jobId: next.id }));
    else await this.chain.handOn(writes, job);
  }
}
