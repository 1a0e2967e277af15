import { MessageReadState, systemClock } from '@app/kernel';
import { PreferenceRepository, Schedule, Subscriber } from '@app/subscribers';
import { Workflow, WorkflowStep } from '@app/workflows';
import { createMemoryStore } from '../../../../../test/fakes/memory';
import { Attempt } from '../../domain/attempt';
import { DETAIL } from '../../domain/execution-detail';
import { Job } from '../../domain/job';
import { TemplateRenderer } from '../../ports/template-renderer.port';
import { ChainSession } from './chain-session';
import { StepRecorder } from './channels/step-recorder';
import { StepChain } from './step-chain';
import { StepContext } from './step-context';
import { PreviousSteps } from './previous-steps';
import { StepGate } from './step-gate';

const scope = { organizationId: 'org', environmentId: 'env' };
// A Monday, 03:00 UTC.
const NOW = new Date('2026-11-23T03:00:00Z');

function chainOf(...types: Job['type'][]): Job[] {
  return types.map(
    (type, index) =>
      ({
        id: `job-${index + 1}`,
        ...scope,
        notificationId: 'n-1',
        transactionId: 'tx-1',
        subscriberId: 'sub-ada',
        externalSubscriberId: 'ada',
        workflowId: 'wf-1',
        stepId: `step-${index + 1}`,
        parentId: index === 0 ? undefined : `job-${index}`,
        type,
        status: index === 0 ? 'running' : 'pending',
        payload: { plan: 'pro', threshold: 'pro' },
        overrides: {},
        attempts: 0,
      }) as unknown as Job,
  );
}

/** Only 09:00-17:00 on weekdays. */
const officeHours: Schedule = {
  isEnabled: true,
  weeklySchedule: Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => [day, { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] }]),
  ),
};

/** StepGate against the in-memory preference store, an unwritten chain standing in for the store's writes. */
function gateFor(
  options: {
    types?: Job['type'][];
    step?: Partial<WorkflowStep>;
    workflow?: Partial<Workflow>;
    subscriber?: Partial<Subscriber>;
    previousSteps?: Record<string, MessageReadState>;
  } = {},
) {
  const { preferences } = createMemoryStore({ clock: { now: () => NOW } });
  const jobs = chainOf(...(options.types ?? ['email', 'in_app']));
  const chain = ChainSession.ofStoredChain(jobs, undefined, systemClock);
  const recorder = new StepRecorder(systemClock);
  const renderer = {
    render: (source: string, variables: { payload: Record<string, unknown> }) => source.replace('{{payload.threshold}}', String(variables.payload.threshold)),
  };
  const previousSteps = { states: async () => options.previousSteps ?? {} } as unknown as PreviousSteps;
  const gate = new StepGate(preferences, renderer as unknown as TemplateRenderer, recorder, new StepChain(recorder), previousSteps);
  const step = { id: 'step-1', active: true, template: { type: jobs[0].type }, ...options.step } as WorkflowStep;
  const workflow = {
    id: 'wf-1',
    ...scope,
    critical: false,
    preferenceSettings: { in_app: true, email: true, sms: true, chat: true, push: true },
    steps: [step],
    ...options.workflow,
  } as unknown as Workflow;
  const subscriber = { id: 'sub-ada', ...scope, subscriberId: 'ada', channels: [], ...options.subscriber } as unknown as Subscriber;
  const context: StepContext = { scope, job: chain.jobs[0], workflow, step, subscriber, session: chain, attempt: Attempt.first(6), now: NOW };
  const state = () => chain.jobs.map((job) => job.status);
  const details = () => chain.held.details.map((detail) => [detail.status, detail.detail]);
  const prefer = (change: Parameters<PreferenceRepository['upsert']>[1]) => preferences.upsert(scope, change);
  return { gate, context, chain, state, details, prefer };
}

const planIs = (value: string, operator = 'EQUAL') => [
  { isNegated: false, type: 'GROUP', value: 'AND' as const, children: [{ on: 'payload', field: 'plan', operator, value }] },
];

describe('StepGate.passesFilters', () => {
  it('lets a step with no filters through, writing nothing', async () => {
    const { gate, context, state, details } = gateFor();
    await expect(gate.passesFilters(context)).resolves.toBe(true);
    expect(state()).toEqual(['running', 'pending']);
    expect(details()).toEqual([]);
  });

  it('lets a step whose filters match through', async () => {
    const { gate, context } = gateFor({ step: { filters: planIs('pro') } });
    await expect(gate.passesFilters(context)).resolves.toBe(true);
  });

  it('skips a step whose filters do not match: canceled, the reason recorded, the next step queued', async () => {
    const { gate, context, state, details, chain } = gateFor({ step: { filters: planIs('free') } });
    await expect(gate.passesFilters(context)).resolves.toBe(false);
    expect(state()).toEqual(['canceled', 'queued']);
    expect(details()).toEqual([['Success', DETAIL.FILTER_STEPS]]);
    expect(chain.held.stepJobs.map((job) => job.id)).toEqual(['job-2']);
  });

  it("reads a previous-step part against that step's message state, recording the check", async () => {
    const readFilter = [{ value: 'AND' as const, children: [{ on: 'previousStep' as const, step: 'uuid-0', stepType: 'read' as const }] }];
    const read = gateFor({ step: { filters: readFilter }, previousSteps: { 'uuid-0': { seen: true, read: true } } });
    await expect(read.gate.passesFilters(read.context)).resolves.toBe(true);

    const unread = gateFor({ step: { filters: readFilter }, previousSteps: { 'uuid-0': { seen: true, read: false } } });
    await expect(unread.gate.passesFilters(unread.context)).resolves.toBe(false);
    expect(unread.state()).toEqual(['canceled', 'queued']);
    expect(JSON.parse(unread.chain.held.details[0].raw!)).toEqual([
      { filter: 'previousStep', field: 'read', expected: 'true', actual: 'false', operator: 'EQUAL', passed: false, step: 'uuid-0' },
    ]);

    // the step sent nothing: passes, as Novu
    const nothing = gateFor({ step: { filters: readFilter } });
    await expect(nothing.gate.passesFilters(nothing.context)).resolves.toBe(true);
  });

  it('renders a filter value that is a template before comparing', async () => {
    const { gate, context } = gateFor({ step: { filters: planIs('{{payload.threshold}}') } });
    await expect(gate.passesFilters(context)).resolves.toBe(true);
  });
});

describe("StepGate.passesFilters: a step's conditions (v2 skip)", () => {
  it('runs a step whose conditions hold, writing nothing, and reads earlier steps, payload and subscriber', async () => {
    const skip = {
      and: [
        { '==': [{ var: 'steps.fetch-user.plan' }, 'pro'] },
        { '==': [{ var: 'payload.plan' }, 'pro'] },
        { '==': [{ var: 'subscriber.subscriberId' }, 'ada'] },
      ],
    };
    const { gate, context, state, details } = gateFor({ step: { skip } });
    context.steps = { 'fetch-user': { plan: 'pro' } };
    await expect(gate.passesFilters(context)).resolves.toBe(true);
    expect(state()).toEqual(['running', 'pending']);
    expect(details()).toEqual([]);
  });

  it('skips a step whose conditions do not hold (as Novu: they say when it runs): canceled, the rule and what it read recorded, the chain goes on', async () => {
    const skip = { '>': [{ var: 'steps.fetch-user.score' }, 10] };
    const { gate, context, state, chain } = gateFor({ step: { skip } });
    context.steps = { 'fetch-user': { score: 3 } };
    await expect(gate.passesFilters(context)).resolves.toBe(false);
    expect(state()).toEqual(['canceled', 'queued']);
    expect(chain.held.details).toEqual([expect.objectContaining({ status: 'Success', detail: DETAIL.FILTER_STEPS })]);
    expect(JSON.parse(chain.held.details[0].raw!)).toEqual({ skip, variables: { 'steps.fetch-user.score': 3 } });
  });

  it('an empty rule never skips; v1 filters are applied first', async () => {
    const empty = gateFor({ step: { skip: {} } });
    await expect(empty.gate.passesFilters(empty.context)).resolves.toBe(true);
    const { gate, context, details } = gateFor({ step: { filters: planIs('free'), skip: { '==': [1, 1] } } });
    await expect(gate.passesFilters(context)).resolves.toBe(false);
    expect(details()).toEqual([['Success', DETAIL.FILTER_STEPS]]);
  });

  it('a rule that cannot be evaluated is refused (the step fails), nothing written', async () => {
    const { gate, context, state } = gateFor({ step: { skip: { unknownOperation: [1] } } });
    await expect(gate.passesFilters(context)).rejects.toMatchObject({ code: 'invalid_step_condition', kind: 'invalid' });
    expect(state()).toEqual(['running', 'pending']);
  });
});

describe('StepGate.passesPreferences', () => {
  it('lets a channel everyone leaves on through', async () => {
    const { gate, context, state } = gateFor();
    await expect(gate.passesPreferences(context)).resolves.toBe(true);
    expect(state()).toEqual(['running', 'pending']);
  });

  it("answers a subscriber who set nothing from the workflow's own preferences, and one who did from theirs, on the same workflow", async () => {
    const { gate, context, details, prefer } = gateFor();
    await expect(gate.passesPreferences(context)).resolves.toBe(true);
    await prefer({ subscriberId: 'sub-ada', workflowId: null, channels: { email: false }, at: NOW });
    await expect(gate.passesPreferences(context)).resolves.toBe(false);
    expect(details()).toEqual([['Success', DETAIL.STEP_FILTERED_BY_SUBSCRIBER_GLOBAL_PREFERENCES]]);
  });

  it('skips a channel the workflow turns off, saying the workflow did', async () => {
    const { gate, context, state, details } = gateFor({ workflow: { preferenceSettings: { in_app: true, email: false, sms: true, chat: true, push: true } } });
    await expect(gate.passesPreferences(context)).resolves.toBe(false);
    expect(state()).toEqual(['canceled', 'queued']);
    expect(details()).toEqual([['Success', DETAIL.STEP_FILTERED_BY_WORKFLOW_PREFERENCES]]);
  });

  it("skips a channel the subscriber turned off for every workflow, saying it was the subscriber's global choice", async () => {
    const { gate, context, details, prefer } = gateFor();
    await prefer({ subscriberId: 'sub-ada', workflowId: null, channels: { email: false }, at: NOW });
    await expect(gate.passesPreferences(context)).resolves.toBe(false);
    expect(details()).toEqual([['Success', DETAIL.STEP_FILTERED_BY_SUBSCRIBER_GLOBAL_PREFERENCES]]);
  });

  it('skips a channel the subscriber turned off for this workflow; another channel still goes', async () => {
    const email = gateFor();
    await email.prefer({ subscriberId: 'sub-ada', workflowId: 'wf-1', channels: { email: false }, at: NOW });
    await expect(email.gate.passesPreferences(email.context)).resolves.toBe(false);
    expect(email.details()).toEqual([['Success', DETAIL.STEP_FILTERED_BY_SUBSCRIBER_WORKFLOW_PREFERENCES]]);

    const sms = gateFor({ types: ['sms'] });
    await sms.prefer({ subscriberId: 'sub-ada', workflowId: 'wf-1', channels: { email: false }, at: NOW });
    await expect(sms.gate.passesPreferences(sms.context)).resolves.toBe(true);
  });

  it("defers a step outside the subscriber's schedule: delayed until the next window, a wake-up due then, the rest of the chain going on", async () => {
    const { gate, context, chain, state, details, prefer } = gateFor();
    await prefer({ subscriberId: 'sub-ada', workflowId: null, channels: {}, schedule: officeHours, at: NOW });
    await expect(gate.passesPreferences(context)).resolves.toBe(false);
    const nine = new Date('2026-11-23T09:00:00Z');
    expect(state()).toEqual(['delayed', 'queued']);
    expect(chain.jobs[0]).toMatchObject({ runAt: nine, scheduleExtensionsCount: 1 });
    expect(details()).toEqual([['Pending', DETAIL.STEP_DEFERRED_TO_SCHEDULE]]);
    expect(chain.held.stepJobs).toEqual([
      expect.objectContaining({ id: 'job-1:schedule:1', data: { jobId: 'job-1', phase: 'wake' }, delayMs: nine.getTime() - NOW.getTime() }),
      expect.objectContaining({ id: 'job-2' }),
    ]);
  });

  it("reads the schedule on the subscriber's own clock", async () => {
    // 03:00 UTC is 12:00 in Tokyo: inside the window.
    const { gate, context, prefer } = gateFor({ subscriber: { timezone: 'Asia/Tokyo' } });
    await prefer({ subscriberId: 'sub-ada', workflowId: null, channels: {}, schedule: officeHours, at: NOW });
    await expect(gate.passesPreferences(context)).resolves.toBe(true);
  });

  it('holds the rest of the chain with a deferred step that must stop it on failure', async () => {
    const { gate, context, state, prefer } = gateFor({ step: { shouldStopOnFail: true } });
    await prefer({ subscriberId: 'sub-ada', workflowId: null, channels: {}, schedule: officeHours, at: NOW });
    await expect(gate.passesPreferences(context)).resolves.toBe(false);
    expect(state()).toEqual(['delayed', 'pending']);
  });

  it('never holds in-app, nor a critical workflow, nor a schedule with no window at all', async () => {
    const inApp = gateFor({ types: ['in_app'] });
    await inApp.prefer({ subscriberId: 'sub-ada', workflowId: null, channels: {}, schedule: officeHours, at: NOW });
    await expect(inApp.gate.passesPreferences(inApp.context)).resolves.toBe(true);

    const critical = gateFor({ workflow: { critical: true } });
    await critical.prefer({ subscriberId: 'sub-ada', workflowId: null, channels: {}, schedule: officeHours, at: NOW });
    await expect(critical.gate.passesPreferences(critical.context)).resolves.toBe(true);

    const never = gateFor();
    await never.prefer({ subscriberId: 'sub-ada', workflowId: null, channels: {}, schedule: { isEnabled: true, weeklySchedule: {} }, at: NOW });
    await expect(never.gate.passesPreferences(never.context)).resolves.toBe(true);
  });
});
