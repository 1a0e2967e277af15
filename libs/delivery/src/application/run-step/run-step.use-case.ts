import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock, DomainError, EnvironmentScope, RetryableJobError, TtlCache, evaluateConditions } from '@app/kernel';
import { PREFERENCE_REPOSITORY, PreferenceRepository, SUBSCRIBER_REPOSITORY, Subscriber, SubscriberRepository, isWithinSchedule, nextScheduleWindow, resolveChannelPreferences } from '@app/subscribers';
import { WORKFLOW_REPOSITORY, Workflow, WorkflowRepository } from '@app/workflows';
import { computeDelayMs } from '../../domain/delay';
import { backoffWindowMs, digestBucketKey, digestWindow, isBackoffDigest } from '../../domain/digest';
import { DETAIL, ExecutionDetailInput, ExecutionDetailStatus, createExecutionDetail } from '../../domain/execution-detail';
import { Job, isTerminalJobStatus } from '../../domain/job';
import { isChannelStep } from '../../domain/step-type';
import { DIGEST_BUCKET_REPOSITORY, DigestBucketRepository } from '../../ports/digest-bucket.repository.port';
import { JOB_REPOSITORY, JobRepository } from '../../ports/job.repository.port';
import { NOTIFICATION_REPOSITORY, NotificationRepository } from '../../ports/notification.repository.port';
import { PIPELINE_JOB_OPTIONS, STEPS_QUEUE, StepJobData } from '../queues';
import { TEMPLATE_RENDERER, TemplateRenderer } from '../../ports/template-renderer.port';
import { SendChannelStep } from './send-channel-step';
import { StepOutcome } from './step-outcome';
import { StepWrites, StoreStepWrites } from './step-writes';
import { StepContext, stepVariables } from './step-context';

const PREFERENCE_DETAIL = {
  workflow: DETAIL.STEP_FILTERED_BY_WORKFLOW_PREFERENCES,
  subscriber_global: DETAIL.STEP_FILTERED_BY_SUBSCRIBER_GLOBAL_PREFERENCES,
  subscriber_workflow: DETAIL.STEP_FILTERED_BY_SUBSCRIBER_WORKFLOW_PREFERENCES,
} as const;
const WORKFLOW_CACHE_MS = 5_000;
const MAX_DIGEST_RACE_ROUNDS = 10;

export interface RunStepCommand extends StepJobData {
  attemptsMade: number;
  attempts: number;
}

/**
 * Runs one job of a notification's chain: filters, preferences, quiet hours, then the step itself
 * (channel delivery, delay, digest), records what happened as execution details, and enqueues the
 * next job. Status changes are compare-and-set, so a redelivered queue job is harmless.
 */
@Injectable()
export class RunStep {
  private readonly logger = new Logger(RunStep.name);
  private readonly workflowCache = new TtlCache<Workflow | null>(WORKFLOW_CACHE_MS);

  constructor(
    @Inject(JOB_REPOSITORY) private readonly jobs: JobRepository,
    @Inject(NOTIFICATION_REPOSITORY) private readonly notifications: NotificationRepository,
    @Inject(DIGEST_BUCKET_REPOSITORY) private readonly digests: DigestBucketRepository,
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(PREFERENCE_REPOSITORY) private readonly preferences: PreferenceRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(TEMPLATE_RENDERER) private readonly renderer: TemplateRenderer,
    private readonly sendChannelStep: SendChannelStep,
    private readonly storeWrites: StoreStepWrites,
  ) {}

  /**
   * `known` saves reads when the caller has just built, written or read these rows (the fan-out
   * running the first steps it creates); a stale value is never passed. `writes` is where the
   * step's effects go: the store and the queue, unless the fan-out runs a chain it has not written yet.
   */
  async execute(command: RunStepCommand, known: { job?: Job; subscriber?: Subscriber } = {}, writes: StepWrites = this.storeWrites): Promise<void> {
    const job = known.job?.id === command.jobId ? known.job : await this.jobs.findById(command.jobId);
    if (!job) return;
    if (isTerminalJobStatus(job.status)) return this.resumeChain(job);
    // A delayed job only resumes through its wake-up, never through a stray redelivery.
    if (job.status === 'delayed' && command.phase !== 'wake') return;
    const scope: EnvironmentScope = { organizationId: job.organizationId, environmentId: job.environmentId };
    const workflow = await this.findWorkflow(scope, job.workflowId);
    const step = workflow?.steps.find((candidate) => candidate.id === job.stepId);
    const subscriber =
      known.subscriber?.subscriberId === job.externalSubscriberId ? known.subscriber : await this.subscribers.findBySubscriberId(scope, job.externalSubscriberId);
    if (!workflow || !step || !subscriber) {
      await this.fail(writes, job, undefined, 'The workflow step or the subscriber no longer exists', 'Internal');
      return;
    }
    if (!(await writes.transition(job.id, 'running'))) return;
    const context: StepContext = { scope, job, workflow, step, subscriber, writes, attemptsMade: command.attemptsMade, attempts: command.attempts, now: this.clock.now() };
    if (job.actorId) context.actor = (await this.subscribers.findBySubscriberId(scope, job.actorId)) ?? undefined;

    try {
      if (command.phase === 'wake' && (job.type === 'delay' || job.type === 'digest')) return await this.wake(context);
      if (command.phase !== 'wake') {
        const filters = this.evaluateFilters(context);
        if (!filters.passed) return await this.skip(context, DETAIL.FILTER_STEPS, filters.details, 'Success');
      }
      if (job.type === 'delay') return await this.startDelay(context);
      if (job.type === 'digest') return await this.startDigest(context);
      if (isChannelStep(job.type)) {
        if (await this.gatedByPreferences(context)) return;
        const outcome = await this.sendChannelStep.execute(context);
        return await this.settle(context, outcome);
      }
      await this.fail(writes, job, step, `Unsupported step type ${job.type}`, 'Internal');
    } catch (error) {
      if (error instanceof RetryableJobError) {
        await writes.transition(job.id, 'queued', { attempts: command.attemptsMade + 1 });
        throw error;
      }
      if (error instanceof DomainError) return await this.fail(writes, job, step, error.message, 'Payload', { code: error.code, ...error.details });
      throw error;
    }
  }

  /** Step filters; a value holding `{{…}}` is a template rendered with the step's variables first (as Novu compiles it). */
  private evaluateFilters(context: StepContext) {
    const variables = stepVariables(context);
    return evaluateConditions(context.step.filters, variables, {
      resolveValue: (value) => (value.includes('{{') ? this.renderer.render(value, variables) : value),
    });
  }

  /** The queue gave up on this job (unexpected errors on every attempt): record it failed rather than leave it running. */
  async giveUp(jobId: string, reason: string): Promise<void> {
    const job = await this.jobs.findById(jobId);
    if (!job || isTerminalJobStatus(job.status)) return;
    await this.fail(this.storeWrites, job, undefined, `Step failed after its last attempt: ${reason}`, 'Internal');
  }

  private async gatedByPreferences(context: StepContext): Promise<boolean> {
    const { scope, job, workflow, subscriber } = context;
    const channel = job.type as keyof typeof PREFERENCE_DETAIL & string;
    const stored = await this.preferences.findForWorkflow(scope, subscriber.id, workflow.id);
    const resolved = resolveChannelPreferences({ workflow, global: stored.global, subscriberWorkflow: stored.workflow });
    const enabled = resolved.channels[job.type as 'email'];
    if (!enabled) {
      await this.skip(context, PREFERENCE_DETAIL[resolved.sources[channel as 'email']], { channel, sources: resolved.sources }, 'Success');
      return true;
    }
    // Quiet hours defer (never drop) everything but in-app; critical workflows go through.
    const schedule = stored.global?.schedule;
    if (job.type === 'in_app' || workflow.critical || !schedule || isWithinSchedule(schedule, subscriber.timezone, context.now)) return false;
    const next = nextScheduleWindow(schedule, subscriber.timezone, context.now);
    if (!next) return false; // no window at all: deliver rather than hold forever
    const extension = (job.scheduleExtensionsCount ?? 0) + 1;
    await context.writes.transition(job.id, 'delayed', { runAt: next, scheduleExtensionsCount: extension });
    await this.record(context.writes, job, 'Pending', DETAIL.STEP_DEFERRED_TO_SCHEDULE, { until: next.toISOString(), timezone: subscriber.timezone ?? 'UTC' });
    await context.writes.enqueue<StepJobData>(STEPS_QUEUE, {
      id: `${job.id}:schedule:${extension}`,
      data: { jobId: job.id, phase: 'wake' },
      delayMs: Math.max(0, next.getTime() - context.now.getTime()),
      ...PIPELINE_JOB_OPTIONS,
    });
    // Quiet hours hold this step only: the rest of the chain (an in-app step, say) goes on now,
    // unless a failure of this step must stop it, which only the deferred run can tell.
    if (!context.step.shouldStopOnFail) await this.enqueueNext(context.writes, job);
    return true;
  }

  private async startDelay(context: StepContext): Promise<void> {
    const { job, step, subscriber } = context;
    const delayMs = computeDelayMs(step.metadata as never, job.payload, job.overrides, context.now, subscriber.timezone);
    const runAt = new Date(context.now.getTime() + delayMs);
    await context.writes.transition(job.id, 'delayed', { runAt });
    await this.record(context.writes, job, 'Pending', DETAIL.STEP_DELAYED, { delayMs, runAt: runAt.toISOString() });
    await context.writes.enqueue<StepJobData>(STEPS_QUEUE, { id: `${job.id}:wake`, data: { jobId: job.id, phase: 'wake' }, delayMs, ...PIPELINE_JOB_OPTIONS });
  }

  private async startDigest(context: StepContext): Promise<void> {
    const { scope, job, step, workflow, subscriber, now } = context;
    const metadata = (step.metadata ?? {}) as never;
    const bucketKey = digestBucketKey(workflow.id, subscriber.id, (step.metadata as { digestKey?: string })?.digestKey, job.payload);
    const event = { jobId: job.id, notificationId: job.notificationId, payload: job.payload, at: now };
    const recent = isBackoffDigest(metadata)
      ? await this.digests.hasRecentEvent(scope, bucketKey, new Date(now.getTime() - backoffWindowMs(metadata)))
      : undefined;
    // Merge into an open digest, or open one; the store decides atomically who is the master.
    for (let round = 0; round < MAX_DIGEST_RACE_ROUNDS; round++) {
      const open = await this.digests.mergeIntoOpen(scope, bucketKey, event);
      if (open?.masterJobId === job.id) return this.waitForDigest(context.writes, job, bucketKey, open.fireAt); // a redelivered master
      if (open) {
        await context.writes.transition(job.id, 'merged', { mergedDigestId: open.masterJobId, digestBucketKey: bucketKey });
        await this.notifications.setDigestedNotification(job.notificationId, open.masterNotificationId);
        await this.record(context.writes, job, 'Success', DETAIL.DIGEST_MERGED, { masterJobId: open.masterJobId });
        await context.writes.cancelChildren(job.notificationId, job.id);
        return;
      }
      const window = digestWindow(metadata, { now, timezone: subscriber.timezone, overrides: job.overrides as never, recentEventInBackoffWindow: recent });
      if (window.action === 'skip') {
        await this.digests.recordEvent(scope, bucketKey, now);
        await context.writes.transition(job.id, 'skipped', { digest: { ...job.digest, events: [job.payload] } });
        await this.record(context.writes, job, 'Success', DETAIL.DIGEST_SKIPPED);
        return this.enqueueNext(context.writes, job, [job.payload]);
      }
      if (await this.digests.openAsMaster(scope, bucketKey, job.id, event, window.fireAt)) return this.waitForDigest(context.writes, job, bucketKey, window.fireAt);
    }
    throw new RetryableJobError('Digest bucket stayed contended');
  }

  private async waitForDigest(writes: StepWrites, job: Job, bucketKey: string, fireAt: Date): Promise<void> {
    await writes.transition(job.id, 'delayed', { runAt: fireAt, digestBucketKey: bucketKey });
    await this.record(writes, job, 'Pending', DETAIL.STEP_DIGESTED, { fireAt: fireAt.toISOString(), bucketKey });
    await writes.enqueue<StepJobData>(STEPS_QUEUE, {
      id: `${job.id}:wake`,
      data: { jobId: job.id, phase: 'wake' },
      delayMs: Math.max(0, fireAt.getTime() - this.clock.now().getTime()),
      ...PIPELINE_JOB_OPTIONS,
    });
  }

  private async wake(context: StepContext): Promise<void> {
    const { scope, job } = context;
    if (job.type === 'delay') {
      await context.writes.transition(job.id, 'completed');
      await this.record(context.writes, job, 'Success', DETAIL.DELAY_FINISHED);
      return this.enqueueNext(context.writes, job);
    }
    const bucketKey = job.digestBucketKey!;
    const events = (await this.digests.close(scope, bucketKey, job.id)) ?? [];
    const payloads = events.map((event) => event.payload);
    await context.writes.transition(job.id, 'completed', { digest: { ...job.digest, events: payloads } });
    await this.record(context.writes, job, 'Success', DETAIL.DIGEST_TRIGGERED_EVENTS, payloads);
    return this.enqueueNext(context.writes, job, payloads);
  }

  private async settle(context: StepContext, outcome: StepOutcome): Promise<void> {
    const { job, step } = context;
    if (outcome.kind === 'failover') {
      // A fresh queue job: the fallback integration gets retries of its own.
      await context.writes.transition(job.id, 'queued', { attempts: 0 });
      await context.writes.enqueue<StepJobData>(STEPS_QUEUE, { id: outcome.queueJobId, data: { jobId: job.id }, delayMs: outcome.delayMs, ...PIPELINE_JOB_OPTIONS });
      return;
    }
    if (outcome.kind === 'completed') {
      await context.writes.transition(job.id, 'completed', outcome.providerId ? { providerId: outcome.providerId } : undefined);
      return this.enqueueNext(context.writes, job);
    }
    if (outcome.kind === 'skipped') {
      await context.writes.transition(job.id, 'canceled', outcome.providerId ? { providerId: outcome.providerId } : undefined);
      return this.enqueueNext(context.writes, job);
    }
    return this.fail(context.writes, job, step, outcome.reason, 'Internal', undefined, true);
  }

  private async skip(context: StepContext, detail: string, raw: unknown, status: ExecutionDetailStatus): Promise<void> {
    await context.writes.transition(context.job.id, 'canceled');
    await this.record(context.writes, context.job, status, detail, raw);
    await this.enqueueNext(context.writes, context.job);
  }

  /** A failed channel step lets the chain go on unless shouldStopOnFail; a failed delay/digest stops it. */
  private async fail(
    writes: StepWrites,
    job: Job,
    step: { shouldStopOnFail?: boolean } | undefined,
    reason: string,
    source: ExecutionDetailInput['source'],
    raw?: unknown,
    alreadyRecorded = false,
  ): Promise<void> {
    await writes.transition(job.id, 'failed', { error: { message: reason } });
    if (!alreadyRecorded) await this.record(writes, job, 'Failed', reason, raw, source);
    if (isChannelStep(job.type) && !step?.shouldStopOnFail) return this.enqueueNext(writes, job);
    const canceled = await writes.cancelChildren(job.notificationId, job.id);
    for (const id of canceled) {
      await writes.appendDetail(createExecutionDetail({ job: { ...job, id }, status: 'Warning', detail: DETAIL.STEP_CANCELED_PREVIOUS_FAILED }, this.clock.now()));
    }
  }

  private async enqueueNext(writes: StepWrites, job: Job, digestEvents?: Record<string, unknown>[]): Promise<void> {
    // Only a job nobody started yet moves: a step deferred to quiet hours already let its successor go.
    // Steps after a digest see its events (Novu's step.events / step.total_count).
    const next = await writes.queueNext(job.id, digestEvents ?? job.digest?.events);
    if (next) await writes.enqueue<StepJobData>(STEPS_QUEUE, { id: next.id, data: { jobId: next.id }, ...PIPELINE_JOB_OPTIONS });
  }

  /**
   * A redelivered job that has already ended: the worker that ended it may have crashed before it
   * handed the chain on (next job still pending, or queued but never added to the queue), so do
   * that part again. Everything here is idempotent; normally it finds the next job already moving.
   */
  private async resumeChain(job: Job): Promise<void> {
    if (job.status === 'merged') {
      await this.storeWrites.cancelChildren(job.notificationId, job.id);
      return;
    }
    if (job.status === 'failed') {
      const step = (await this.findWorkflow({ organizationId: job.organizationId, environmentId: job.environmentId }, job.workflowId))?.steps.find(
        (candidate) => candidate.id === job.stepId,
      );
      if (!isChannelStep(job.type) || step?.shouldStopOnFail) {
        for (const id of await this.storeWrites.cancelChildren(job.notificationId, job.id)) {
          await this.storeWrites.appendDetail(createExecutionDetail({ job: { ...job, id }, status: 'Warning', detail: DETAIL.STEP_CANCELED_PREVIOUS_FAILED }, this.clock.now()));
        }
        return;
      }
    }
    const next = await this.jobs.findNextJob(job.id);
    // `queued` but maybe never added: the crash came between the two (adding again is a no-op if it landed).
    if (next?.status === 'queued') await this.storeWrites.enqueue<StepJobData>(STEPS_QUEUE, { id: next.id, data: { jobId: next.id }, ...PIPELINE_JOB_OPTIONS });
    else await this.enqueueNext(this.storeWrites, job);
  }

  private record(writes: StepWrites, job: Job, status: ExecutionDetailStatus, detail: string, raw?: unknown, source: ExecutionDetailInput['source'] = 'Internal') {
    return writes.appendDetail(createExecutionDetail({ job, status, detail, raw, source }, this.clock.now()));
  }

  private findWorkflow(scope: EnvironmentScope, id: string): Promise<Workflow | null> {
    return this.workflowCache.getOrLoad(id, () => this.workflows.findByIdIncludingDeleted(scope, id));
  }
}
