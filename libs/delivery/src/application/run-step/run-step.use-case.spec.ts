import type { ContextRepository } from '@app/contexts';
import type { EnvironmentVariableRepository } from '@app/environments';
import { DomainError, RetryableJobError, systemClock } from '@app/kernel';
import { PreferenceRepository, Subscriber, SubscriberRepository } from '@app/subscribers';
import { Workflow, WorkflowRepository, WorkflowStep } from '@app/workflows';
import { Attempt } from '../../domain/attempt';
import { DETAIL } from '../../domain/execution-detail';
import { Job } from '../../domain/job';
import { TemplateRenderer } from '../../ports/template-renderer.port';
import { ChainSession } from './chain-session';
import { ChainSessions } from './chain-sessions';
import { StepRecorder } from './channels/step-recorder';
import { RunStep } from './run-step.use-case';
import { StepSources } from './step-sources';
import { StepChain } from './step-chain';
import { PreviousSteps } from './previous-steps';
import { StepGate } from './step-gate';
import { StepHandler } from './step-handler';
import { StepHandlers } from './step-handlers';
import { StepOutcome } from './step-outcome';

const scope = { organizationId: 'org', environmentId: 'env' };
const ada = { id: 'sub-ada', ...scope, subscriberId: 'ada', channels: [] } as unknown as Subscriber;

function chainOf(...types: Job['type'][]): Job[] {
  return types.map(
    (type, index) =>
      ({
        id: `job-${index + 1}`,
        ...scope,
        notificationId: 'n-1',
        transactionId: 'tx-1',
        subscriberId: ada.id,
        externalSubscriberId: 'ada',
        workflowId: 'wf-1',
        stepId: `step-${index + 1}`,
        parentId: index === 0 ? undefined : `job-${index}`,
        type,
        status: index === 0 ? 'queued' : 'pending',
        payload: { plan: 'pro' },
        overrides: {},
        attempts: 0,
      }) as unknown as Job,
  );
}

function workflowOf(jobs: Job[], step: Partial<WorkflowStep> = {}, preferences: Record<string, boolean> = {}): Workflow {
  return {
    id: 'wf-1',
    ...scope,
    critical: false,
    preferenceSettings: { in_app: true, email: true, sms: true, chat: true, push: true, ...preferences },
    steps: jobs.map((job, index) => ({ id: job.stepId, template: { type: job.type }, ...(index === 0 ? step : {}) })),
  } as unknown as Workflow;
}

/**
 * RunStep's frame alone: the step handlers are scripted, the chain is one session (its flushes
 * write nothing: what the frame left in it is what a flush would write), the workflow and
 * subscriber are read from stand-ins.
 */
function runStep(jobs: Job[], handler: Partial<StepHandler>, workflow = workflowOf(jobs)) {
  const chain = ChainSession.ofStoredChain(jobs, jobs[0].id, systemClock, async () => true);
  const ran: string[] = [];
  const scripted: StepHandler = {
    run: async (context) => (ran.push(`run ${context.job.id}`), handler.run!(context)),
    ...(handler.wake ? { wake: async (context) => (ran.push(`wake ${context.job.id}`), handler.wake!(context)) } : {}),
  };
  const handlers = { of: (type: string) => (type === 'in_app' || type === 'email' ? scripted : undefined) } as unknown as StepHandlers;
  const recorder = new StepRecorder(systemClock);
  const steps = new StepChain(recorder);
  const gate = new StepGate(
    { findForWorkflow: async () => ({ global: null, workflow: null }) } as unknown as PreferenceRepository,
    { render: (source: string) => source.replace('{{payload.plan}}', 'pro') } as unknown as TemplateRenderer,
    recorder,
    steps,
    { states: async () => ({}) } as unknown as PreviousSteps,
  );
  const useCase = new RunStep(
    { findByIdIncludingDeleted: async () => workflow } as unknown as WorkflowRepository,
    { findBySubscriberId: async () => ada } as unknown as SubscriberRepository,
    { openStored: async (id: string) => (chain.job(id) ? chain : null) } as unknown as ChainSessions,
    handlers,
    gate,
    steps,
    recorder,
    new StepSources({ valuesFor: async () => [] } as unknown as EnvironmentVariableRepository, { findByKeys: async () => [] } as unknown as ContextRepository),
  );
  const ahead = (attempt = Attempt.first(6)) => useCase.runIn(chain, { jobId: jobs[0].id, attempt }, ada);
  const details = () => chain.held.details.map((detail) => [detail.jobId, detail.status, detail.detail]);
  return { useCase, chain, ran, ahead, details };
}

const answer = (outcome: StepOutcome) => async () => outcome;

describe('RunStep', () => {
  it('moves the job to running, then settles a delivered step: completed, the next job queued and added', async () => {
    const { chain, ahead } = runStep(chainOf('in_app', 'email'), {
      run: async (context) => {
        expect(chain.jobs[0].status).toBe('running');
        expect(context.attempt).toMatchObject({ made: 0, allowed: 6 });
        return { kind: 'completed', providerId: 'novu' };
      },
    });
    await ahead();
    expect(chain.jobs.map((job) => job.status)).toEqual(['completed', 'queued']);
    expect(chain.jobs[0].providerId).toBe('novu');
    expect(chain.held.stepJobs.map((job) => job.id)).toEqual(['job-2']);
  });

  it('a step with nothing to deliver to is canceled and the chain goes on', async () => {
    const { chain, ahead } = runStep(chainOf('in_app', 'email'), { run: answer({ kind: 'skipped' }) });
    await ahead();
    expect(chain.jobs.map((job) => job.status)).toEqual(['canceled', 'queued']);
  });

  it('a failed channel step lets the chain go on; with shouldStopOnFail it cancels the rest, saying why on each job', async () => {
    const goesOn = runStep(chainOf('in_app', 'email'), { run: answer({ kind: 'failed', reason: 'no integration' }) });
    await goesOn.ahead();
    expect(goesOn.chain.jobs.map((job) => [job.status, job.error?.message])).toEqual([
      ['failed', 'no integration'],
      ['queued', undefined],
    ]);
    expect(goesOn.details()).toEqual([]); // the step recorded its failure itself

    const jobs = chainOf('in_app', 'email', 'email');
    const stops = runStep(jobs, { run: answer({ kind: 'failed', reason: 'no integration' }) }, workflowOf(jobs, { shouldStopOnFail: true }));
    await stops.ahead();
    expect(stops.chain.jobs.map((job) => job.status)).toEqual(['failed', 'canceled', 'canceled']);
    expect(stops.details()).toEqual([
      ['job-2', 'Warning', DETAIL.STEP_CANCELED_PREVIOUS_FAILED],
      ['job-3', 'Warning', DETAIL.STEP_CANCELED_PREVIOUS_FAILED],
    ]);
    expect(stops.chain.held.stepJobs).toEqual([]);
  });

  it('a throttled run is skipped with the rest of its chain, each later job saying why; a redelivery finishes skipping the rest', async () => {
    const { chain, ahead, details } = runStep(chainOf('in_app', 'email', 'email'), { run: answer({ kind: 'throttled' }) });
    await ahead();
    expect(chain.jobs.map((job) => job.status)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(details()).toEqual([
      ['job-2', 'Warning', DETAIL.STEP_SKIPPED_BY_THROTTLE],
      ['job-3', 'Warning', DETAIL.STEP_SKIPPED_BY_THROTTLE],
    ]);
    expect(chain.held.stepJobs).toEqual([]);

    // the worker skipped the throttle step, then died before the rest of its chain
    const jobs = chainOf('throttle', 'email').map((job, index) => (index === 0 ? { ...job, status: 'skipped' as const } : job));
    const redelivered = runStep(jobs, { run: answer({ kind: 'completed' }) });
    await redelivered.useCase.execute({ jobId: 'job-1', attempt: Attempt.first(6) });
    expect(redelivered.chain.jobs.map((job) => job.status)).toEqual(['skipped', 'skipped']);
    expect(redelivered.ran).toEqual([]);
  });

  it('input the domain refuses fails the step, recorded as a Payload failure with its code', async () => {
    const { chain, ahead } = runStep(chainOf('in_app'), {
      run: async () => {
        throw new DomainError('bad_delay', 'Delay path is not a date', 'invalid');
      },
    });
    await ahead();
    expect(chain.jobs[0].status).toBe('failed');
    expect(chain.held.details).toEqual([
      expect.objectContaining({ status: 'Failed', source: 'Payload', detail: 'Delay path is not a date', raw: JSON.stringify({ code: 'bad_delay' }) }),
    ]);
  });

  it('a step that asks for a retry goes back to queued with this attempt counted, and the error goes on to the queue', async () => {
    const { chain, ahead } = runStep(chainOf('in_app'), {
      run: async () => {
        throw new RetryableJobError('503');
      },
    });
    await expect(ahead(Attempt.first(6).next())).rejects.toBeInstanceOf(RetryableJobError);
    expect(chain.jobs[0]).toMatchObject({ status: 'queued', attempts: 2 });
  });

  it('a failover runs the step again as a fresh queue job, with a whole retry budget', async () => {
    const { chain, ahead } = runStep(chainOf('in_app', 'email'), { run: answer({ kind: 'failover', queueJobId: 'job-1:failover:a:b', delayMs: 1_000 }) });
    await ahead();
    expect(chain.jobs.map((job) => [job.status, job.attempts])).toEqual([
      ['queued', 0],
      ['pending', 0],
    ]);
    expect(chain.held.stepJobs).toEqual([expect.objectContaining({ id: 'job-1:failover:a:b', data: { jobId: 'job-1' }, delayMs: 1_000, attempts: 6 })]);
  });

  it('filters that do not pass skip the step: canceled with the reason, the chain goes on, the handler never runs', async () => {
    const jobs = chainOf('in_app', 'email');
    const filters = [{ isNegated: false, type: 'GROUP', value: 'AND', children: [{ on: 'payload', field: 'plan', operator: 'EQUAL', value: 'free' }] }];
    const { chain, ran, ahead, details } = runStep(jobs, { run: answer({ kind: 'completed' }) }, workflowOf(jobs, { filters } as never));
    await ahead();
    expect(ran).toEqual([]);
    expect(chain.jobs.map((job) => job.status)).toEqual(['canceled', 'queued']);
    expect(details()).toEqual([['job-1', 'Success', DETAIL.FILTER_STEPS]]);
  });

  describe('step variants', () => {
    const on = (field: string, value: string, source = 'payload') => [
      { isNegated: false, type: 'GROUP', value: 'AND', children: [{ on: source, field, operator: 'EQUAL', value }] },
    ];
    const variant = (id: string, filters: unknown, extra: Record<string, unknown> = {}) => ({
      id,
      uuid: `${id}-uuid`,
      name: `Variant ${id}`,
      active: true,
      template: { type: 'in_app', content: id },
      filters,
      ...extra,
    });
    const seen = (jobs: Job[], variants: unknown[]) => {
      const contents: unknown[] = [];
      const run = runStep(
        jobs,
        { run: async (context) => (contents.push([context.step.id, context.step.template.content, context.step.variant?.id]), { kind: 'completed' }) },
        workflowOf(jobs, { template: { type: 'in_app', content: 'own' }, variants: variants as never } as never),
      );
      return { ...run, contents };
    };

    it("the first active variant whose filters pass replaces the step's content, keeps its id, and is named in a detail", async () => {
      const jobs = chainOf('in_app');
      const { ahead, contents, chain } = seen(jobs, [
        variant('free', on('plan', 'free')),
        variant('off', on('plan', 'pro'), { active: false }),
        variant('pro', on('plan', 'pro')),
        variant('also-pro', on('plan', 'pro')),
      ]);
      await ahead();
      expect(contents).toEqual([['step-1', 'pro', 'pro']]);
      expect(chain.held.details).toEqual([expect.objectContaining({ status: 'Success', detail: DETAIL.STEP_VARIANT_SELECTED })]);
      expect(JSON.parse(chain.held.details[0].raw!)).toMatchObject({ variantId: 'pro', name: 'Variant pro' });
    });

    it('a variant picked by the subscriber; no variant passing runs the step itself, with no variant detail', async () => {
      const bySubscriber = seen(chainOf('in_app'), [variant('ada', on('subscriberId', 'ada', 'subscriber'))]);
      await bySubscriber.ahead();
      expect(bySubscriber.contents).toEqual([['step-1', 'ada', 'ada']]);

      const none = seen(chainOf('in_app'), [variant('free', on('plan', 'free')), variant('bob', on('subscriberId', 'bob', 'subscriber'))]);
      await none.ahead();
      expect(none.contents).toEqual([['step-1', 'own', undefined]]);
      expect(none.chain.held.details).toEqual([]);
    });
  });

  it('a channel the workflow turns off is skipped by preferences before the handler', async () => {
    const jobs = chainOf('in_app');
    const { chain, ran, ahead, details } = runStep(jobs, { run: answer({ kind: 'completed' }) }, workflowOf(jobs, {}, { in_app: false }));
    await ahead();
    expect(ran).toEqual([]);
    expect(chain.jobs[0].status).toBe('canceled');
    expect(details()).toEqual([['job-1', 'Success', DETAIL.STEP_FILTERED_BY_WORKFLOW_PREFERENCES]]);
  });

  it("a wake-up goes to the handler's second half, past the filters; a stray redelivery of a waiting job does nothing", async () => {
    const jobs = chainOf('email', 'in_app').map((job, index) => (index === 0 ? { ...job, status: 'delayed' as const } : job));
    const { useCase, chain, ran } = runStep(jobs, { run: answer({ kind: 'waiting' }), wake: answer({ kind: 'ended', digestEvents: [{ n: 1 }] }) });
    await useCase.execute({ jobId: 'job-1', attempt: Attempt.first(6) });
    expect(ran).toEqual([]);
    await useCase.execute({ jobId: 'job-1', phase: 'wake', attempt: Attempt.first(6) });
    expect(ran).toEqual(['wake job-1']);
    expect(chain.jobs[1]).toMatchObject({ status: 'queued', digest: { events: [{ n: 1 }] } });
  });

  it('a step type without a handler fails as unsupported', async () => {
    const jobs = chainOf('custom', 'email');
    const { useCase, chain, details } = runStep(jobs, { run: answer({ kind: 'completed' }) });
    await useCase.execute({ jobId: 'job-1', attempt: Attempt.first(6) });
    expect(chain.jobs.map((job) => job.status)).toEqual(['failed', 'canceled']);
    expect(details()[0]).toEqual(['job-1', 'Failed', 'Unsupported step type custom']);
  });
});
