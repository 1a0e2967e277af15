import { Metrics, ThrottleOutcome, noopMetrics, systemClock } from '@app/kernel';
import { Subscriber } from '@app/subscribers';
import { Workflow, WorkflowStep } from '@app/workflows';
import { InMemoryThrottleWindowRepository } from '../../../../../../test/fakes/memory/in-memory-throttle-window.repository';
import { Attempt } from '../../../domain/attempt';
import { DETAIL } from '../../../domain/execution-detail';
import { InvalidThrottleError } from '../../../domain/errors';
import { Job } from '../../../domain/job';
import { ChainSession } from '../chain-session';
import { StepRecorder } from '../channels/step-recorder';
import { StepContext } from '../step-context';
import { ThrottleStep } from './throttle.step';

const scope = { organizationId: 'org', environmentId: 'env' };
const start = new Date('2026-03-02T10:00:00Z');
const ada = { id: 'sub-ada', ...scope, subscriberId: 'ada', channels: [] } as unknown as Subscriber;
const later = (ms: number) => new Date(start.getTime() + ms);

/**
 * Runs of one workflow's throttle step: each run its own notification's chain (throttle, then
 * in-app), the windows in the in-memory store every run shares.
 */
function throttleStep(metadata: Record<string, unknown>) {
  const windows = new InMemoryThrottleWindowRepository();
  const step = { id: 'step-throttle', template: { type: 'throttle' }, metadata } as unknown as WorkflowStep;
  const workflow = { id: 'wf-1', steps: [step] } as unknown as Workflow;
  const counted: ThrottleOutcome[] = [];
  const metrics: Metrics = { ...noopMetrics, throttle: (outcome) => void counted.push(outcome) };
  let now = start;
  const handler = new ThrottleStep(new StepRecorder({ now: () => now }), windows, metrics);

  async function run(jobId: string, payload: Record<string, unknown> = {}, at = start) {
    now = at;
    const jobs = [
      { id: jobId, type: 'throttle', status: 'running', parentId: undefined },
      { id: `${jobId}-next`, type: 'in_app', status: 'pending', parentId: jobId },
    ].map(
      (job) =>
        ({
          ...job,
          ...scope,
          notificationId: `n-${jobId}`,
          transactionId: `tx-${jobId}`,
          subscriberId: ada.id,
          payload,
          overrides: {},
          attempts: 0,
        }) as unknown as Job,
    );
    const chain = ChainSession.ofStoredChain(jobs, undefined, systemClock);
    const context: StepContext = { scope, job: chain.jobs[0], workflow, step, subscriber: ada, session: chain, attempt: Attempt.first(6), now };
    const outcome = await handler.run(context);
    const [detail] = chain.held.details;
    return { outcome, detail: detail && { status: detail.status, detail: detail.detail, raw: detail.raw ? JSON.parse(detail.raw) : null } };
  }
  return { run, counted, windows };
}

describe('ThrottleStep', () => {
  it('lets `threshold` runs of a window through and throttles the rest, saying how many ran, the window and whether it passed', async () => {
    const { run, counted } = throttleStep({ type: 'fixed', amount: 1, unit: 'minutes', threshold: 2 });
    const window = { threshold: 2, windowStart: start.toISOString(), throttledUntil: later(60_000).toISOString() };
    expect(await run('job-1')).toEqual({
      outcome: { kind: 'completed' },
      detail: { status: 'Success', detail: DETAIL.THROTTLE_PASSED, raw: { throttled: false, executionCount: 1, ...window } },
    });
    expect(await run('job-2', {}, later(1000))).toMatchObject({ outcome: { kind: 'completed' }, detail: { raw: { executionCount: 2 } } });
    expect(await run('job-3', {}, later(2000))).toEqual({
      outcome: { kind: 'throttled' },
      detail: { status: 'Success', detail: DETAIL.THROTTLE_LIMIT_EXCEEDED, raw: { throttled: true, executionCount: 2, ...window } },
    });
    expect(counted).toEqual(['admitted', 'admitted', 'throttled']);
    // a rerun of an admitted job (its worker crashed) passes again without taking another place
    expect(await run('job-2', {}, later(3000))).toMatchObject({ outcome: { kind: 'completed' }, detail: { raw: { executionCount: 2 } } });
    // the window opened by job-1 ends a minute after it: the first run after that opens the next one
    expect(await run('job-4', {}, later(59_999))).toMatchObject({ outcome: { kind: 'throttled' } });
    expect(await run('job-5', {}, later(60_000))).toMatchObject({
      outcome: { kind: 'completed' },
      detail: { raw: { executionCount: 1, windowStart: later(60_000).toISOString(), throttledUntil: later(120_000).toISOString() } },
    });
  });

  it('counts runs apart per value at throttleKey, naming the key and value it counted by', async () => {
    const { run } = throttleStep({ type: 'fixed', amount: 1, unit: 'hours', threshold: 1, throttleKey: 'payload.projectId' });
    expect(await run('job-1', { projectId: 'a' })).toMatchObject({
      outcome: { kind: 'completed' },
      detail: { raw: { throttleKey: 'payload.projectId', throttleValue: 'a' } },
    });
    expect(await run('job-2', { projectId: 'b' })).toMatchObject({ outcome: { kind: 'completed' }, detail: { raw: { throttleValue: 'b' } } });
    expect(await run('job-3', { projectId: 'a' })).toMatchObject({
      outcome: { kind: 'throttled' },
      detail: { raw: { throttleValue: 'a', executionCount: 1 } },
    });
    expect(await run('job-4', {})).toMatchObject({ outcome: { kind: 'completed' }, detail: { raw: { throttleValue: null } } });
  });

  it('a dynamic window lasts what the payload says; a payload without one throttles nothing, with a warning; one already over fails the step', async () => {
    const { run, counted } = throttleStep({ type: 'dynamic', dynamicKey: 'payload.window', threshold: 1 });
    expect(await run('job-1', { window: { amount: 3, unit: 'seconds' } })).toMatchObject({
      outcome: { kind: 'completed' },
      detail: { raw: { throttledUntil: later(3000).toISOString() } },
    });
    expect(await run('job-2', { window: { amount: 3, unit: 'seconds' } }, later(2999))).toMatchObject({ outcome: { kind: 'throttled' } });
    expect(await run('job-3', { window: { amount: 3, unit: 'seconds' } }, later(3000))).toMatchObject({ outcome: { kind: 'completed' } });
    expect(await run('job-4', {}, later(3001))).toEqual({
      outcome: { kind: 'completed' },
      detail: { status: 'Warning', detail: DETAIL.THROTTLE_WINDOW_UNREADABLE, raw: expect.objectContaining({ dynamicKey: 'payload.window' }) },
    });
    await expect(run('job-5', { window: start.toISOString() }, later(4000))).rejects.toThrow(InvalidThrottleError);
    expect(counted).toEqual(['admitted', 'throttled', 'admitted']);
  });
});
