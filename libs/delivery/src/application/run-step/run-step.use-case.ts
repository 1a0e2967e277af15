import { Inject, Injectable } from '@nestjs/common';
import { DomainError, EnvironmentScope, RetryableJobError } from '@app/kernel';
import { SUBSCRIBER_REPOSITORY, Subscriber, SubscriberRepository } from '@app/subscribers';
import { WORKFLOW_REPOSITORY, WorkflowRepository, WorkflowStep } from '@app/workflows';
import { Attempt } from '../../domain/attempt';
import { DETAIL, ExecutionDetailSource } from '../../domain/execution-detail';
import { Job, isTerminalJobStatus } from '../../domain/job';
import { isChannelStep } from '../../domain/step-type';
import { StepJobData, stepJob } from '../queues';
import { ChainSession, LeadLostError } from './chain-session';
import { ChainSessions } from './chain-sessions';
import { StepRecorder } from './channels/step-recorder';
import { StepChain, failureStopsChain } from './step-chain';
import { StepContext } from './step-context';
import { StepGate } from './step-gate';
import { StepHandlers } from './step-handlers';
import { StepOutcome } from './step-outcome';
import { StepSources } from './step-sources';
import { earlierStepOutputs, hasEarlierOutputs } from './step-outputs';

export interface RunStepCommand extends Pick<StepJobData, 'jobId' | 'phase'> {
  attempt: Attempt;
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
 * Runs one job of a notification's chain against a session of the chain (ChainSession): moves it to
 * `running` (written with the job's next move, a compare-and-set, so a redelivered queue job is
 * harmless), applies step filters and conditions, preferences and quiet hours, hands it
 * to the handler of its step type (channel, delay, digest), and settles what the handler answers:
 * the job's end, and the rest of the chain going on or canceled.
 */
@Injectable()
export class RunStep {
  constructor(
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    private readonly sessions: ChainSessions,
    private readonly handlers: StepHandlers,
    private readonly gate: StepGate,
    private readonly chain: StepChain,
    private readonly recorder: StepRecorder,
    private readonly sources: StepSources,
  ) {}

  /** Runs the job against a session of its stored chain, and writes what it did (also when it throws: a retry's count, say). */
  async execute(command: RunStepCommand): Promise<void> {
    const session = await this.sessions.openStored(command.jobId);
    if (!session) return;
    try {
      await this.runIn(session, command);
    } catch (error) {
      await session.flush();
      throw error;
    }
    await session.flush();
  }

  /**
   * Runs the session's lead job against the session, which its opener flushes (the fan-out, a batch
   * of new chains at once). `subscriber`: the job's, when the caller has just read it.
   */
  async runIn(session: ChainSession, command: RunStepCommand, subscriber?: Subscriber): Promise<void> {
    const job = session.job(command.jobId);
    if (!job) return;
    if (isTerminalJobStatus(job.status)) return this.resumeChain(session, job);
    // A delayed job only resumes through its wake-up, never through a stray redelivery.
    if (job.status === 'delayed' && command.phase !== 'wake') return;
    return this.run(session, command, job, subscriber);
  }

  /** The queue gave up on this job (unexpected errors on every attempt): record it failed rather than leave it running. */
  async giveUp(jobId: string, reason: string): Promise<void> {
    const session = await this.sessions.openStored(jobId);
    const job = session?.job(jobId);
    if (!session || !job || isTerminalJobStatus(job.status)) return;
    this.fail({ session, job: { ...job } }, { reason: `Step failed after its last attempt: ${reason}` });
    await session.flush();
  }

  private async run(session: ChainSession, command: RunStepCommand, stored: Job, known?: Subscriber): Promise<void> {
    const job = { ...stored };
    const scope: EnvironmentScope = { organizationId: job.organizationId, environmentId: job.environmentId };
    const workflow = await this.workflows.findByIdIncludingDeleted(scope, job.workflowId);
    const step = workflow?.steps.find((candidate) => candidate.id === job.stepId);
    const subscriber = known?.subscriberId === job.externalSubscriberId ? known : await this.subscribers.findBySubscriberId(scope, job.externalSubscriberId);
    if (!workflow || !step || !subscriber) return this.fail({ session, job }, { reason: 'The workflow step or the subscriber no longer exists' });
    if (!session.transition(job.id, 'running')) return;
    const context: StepContext = { scope, job, workflow, step, subscriber, session, attempt: command.attempt, now: this.recorder.now() };
    if (job.actorId) context.actor = (await this.subscribers.findBySubscriberId(scope, job.actorId)) ?? undefined;
    if (hasEarlierOutputs(workflow, step.id)) context.steps = earlierStepOutputs(workflow, session.jobs, job.id);
    await this.sources.load(context);

    const handler = this.handlers.of(job.type);
    try {
      if (command.phase === 'wake' && handler?.wake) return this.settle(context, await handler.wake(context));
      // A wake-up of a deferred channel step passed its filters before it was deferred.
      if (command.phase !== 'wake' && !(await this.gate.passesFilters(context))) return;
      if (!handler) return this.fail(context, { reason: `Unsupported step type ${job.type}` });
      if (isChannelStep(job.type) && !(await this.gate.passesPreferences(context))) return;
      if (isChannelStep(job.type)) context.step = await this.gate.selectVariant(context);
      return this.settle(context, await handler.run(context));
    } catch (error) {
      if (error instanceof LeadLostError) return;
      if (error instanceof RetryableJobError) {
        session.transition(job.id, 'queued', { attempts: command.attempt.number });
        throw error;
      }
      if (error instanceof DomainError) return this.fail(context, { reason: error.message, source: 'Payload', raw: { code: error.code, ...error.details } });
      throw error;
    }
  }

  private settle(context: StepContext, outcome: StepOutcome): void {
    const { job, session } = context;
    switch (outcome.kind) {
      case 'completed':
      case 'skipped':
        session.transition(
          job.id,
          outcome.kind === 'completed' ? 'completed' : 'canceled',
          outcome.providerId ? { providerId: outcome.providerId } : undefined,
        );
        return this.chain.handOn(session, job);
      case 'failed':
        return this.fail(context, { reason: outcome.reason, recorded: true, providerId: outcome.providerId });
      case 'failover':
        // A fresh queue job: the fallback integration gets retries of its own.
        session.transition(job.id, 'queued', { attempts: 0 });
        return session.enqueue(stepJob(outcome.queueJobId, { jobId: job.id }, outcome.delayMs));
      case 'ended':
        return this.chain.handOn(session, job, outcome.digestEvents);
      case 'merged':
        // As Novu: the rest of a merged digest's chain is `merged` too, not canceled.
        return this.chain.cancelRest(session, job, { status: 'merged' });
      case 'throttled':
        session.transition(job.id, 'skipped');
        return this.skipAfterThrottle(session, job);
      case 'waiting':
        return;
    }
  }

  /** The rest of a chain a throttle step stopped: `skipped`, as Novu, each saying why. */
  private skipAfterThrottle(session: ChainSession, job: Job): void {
    return this.chain.cancelRest(session, job, { status: 'skipped', detail: DETAIL.STEP_SKIPPED_BY_THROTTLE });
  }

  /** `at.step` is undefined when the workflow step is gone. */
  private fail(at: { session: ChainSession; job: Job; step?: WorkflowStep }, failure: Failure): void {
    const { session, job } = at;
    session.transition(job.id, 'failed', { error: { message: failure.reason }, ...(failure.providerId ? { providerId: failure.providerId } : {}) });
    if (!failure.recorded) this.recorder.detail(at, 'Failed', failure.reason, { raw: failure.raw, source: failure.source ?? 'Internal' });
    if (failureStopsChain(job, at.step)) return this.chain.cancelRest(session, job, { detail: DETAIL.STEP_CANCELED_PREVIOUS_FAILED });
    return this.chain.handOn(session, job);
  }

  /**
   * A redelivered job that has already ended: the worker that ended it may have crashed before it
   * handed the chain on (next job still pending, or queued but never added to the queue), so do
   * that part again. Everything here is idempotent; normally it finds the next job already moving.
   */
  private async resumeChain(session: ChainSession, job: Job): Promise<void> {
    if (job.status === 'merged') return this.chain.cancelRest(session, job, { status: 'merged' });
    // A skipped throttle step stopped its chain (a skipped digest lets it go on).
    if (job.status === 'skipped' && job.type === 'throttle') return this.skipAfterThrottle(session, job);
    if (job.status === 'failed') {
      const workflow = await this.workflows.findByIdIncludingDeleted({ organizationId: job.organizationId, environmentId: job.environmentId }, job.workflowId);
      const step = workflow?.steps.find((candidate) => candidate.id === job.stepId);
      if (failureStopsChain(job, step)) return this.chain.cancelRest(session, job, { detail: DETAIL.STEP_CANCELED_PREVIOUS_FAILED });
    }
    const next = session.nextOf(job.id);
    // `queued` but maybe never added: the crash came between the two (adding again is a no-op if it landed).
    if (next?.status === 'queued') session.enqueue(stepJob(next.id, { jobId: next.id }));
    else this.chain.handOn(session, job);
  }
}
