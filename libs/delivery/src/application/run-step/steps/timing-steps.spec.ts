import { RetryableJobError, systemClock } from '@app/kernel';
import { Subscriber } from '@app/subscribers';
import { Workflow, WorkflowStep } from '@app/workflows';
import { Attempt } from '../../../domain/attempt';
import { DETAIL } from '../../../domain/execution-detail';
import { Job } from '../../../domain/job';
import { DigestBucketRepository, DigestEvent, OpenDigest } from '../../../ports/digest-bucket.repository.port';
import { ChainSession } from '../chain-session';
import { StepRecorder } from '../channels/step-recorder';
import { StepContext } from '../step-context';
import { DelayStep } from './delay.step';
import { DigestStep } from './digest.step';

const scope = { organizationId: 'org', environmentId: 'env' };
const now = new Date('2026-03-02T10:00:00Z');
const clock = { now: () => now };
const recorder = new StepRecorder(clock);
const ada = { id: 'sub-ada', ...scope, subscriberId: 'ada', channels: [] } as unknown as Subscriber;

function running(type: Job['type'], metadata: Record<string, unknown>) {
  const jobs = [type, 'in_app'].map(
    (jobType, index) =>
      ({
        id: `job-${index + 1}`,
        ...scope,
        notificationId: 'n-1',
        transactionId: 'tx-1',
        subscriberId: ada.id,
        parentId: index === 0 ? undefined : 'job-1',
        type: jobType,
        status: index === 0 ? 'running' : 'pending',
        payload: { order: 7 },
        overrides: {},
        attempts: 0,
      }) as unknown as Job,
  );
  const step = { id: 'step-1', template: { type }, metadata } as unknown as WorkflowStep;
  const chain = ChainSession.ofStoredChain(jobs, undefined, systemClock);
  const context = (job = chain.jobs[0]): StepContext => ({
    scope,
    job,
    workflow: { id: 'wf-1', steps: [step] } as unknown as Workflow,
    step,
    subscriber: ada,
    session: chain,
    attempt: Attempt.first(6),
    now,
  });
  return { chain, context, details: () => chain.held.details.map((detail) => detail.detail) };
}

/** Scripted digest buckets: what DigestStep needs of the store beside its chain's session. */
function buckets(scripted: Partial<DigestBucketRepository>) {
  const calls: string[] = [];
  const repository: DigestBucketRepository = {
    mergeIntoOpen: async () => null,
    openAsMaster: async () => true,
    close: async () => null,
    recordEvent: async () => void calls.push('recordEvent'),
    hasRecentEvent: async () => false,
    ...scripted,
  };
  return { digest: new DigestStep(recorder, repository), calls };
}

describe('DelayStep', () => {
  it('waits: the job delayed until the delay ends, with a wake-up job due then; the wake-up completes it and the chain goes on', async () => {
    const { chain, context, details } = running('delay', { type: 'regular', amount: 5, unit: 'minutes' });
    const delay = new DelayStep(recorder);
    await expect(delay.run(context())).resolves.toEqual({ kind: 'waiting' });
    expect(chain.jobs[0]).toMatchObject({ status: 'delayed', runAt: new Date('2026-03-02T10:05:00Z') });
    expect(chain.held.stepJobs).toEqual([expect.objectContaining({ id: 'job-1:wake', data: { jobId: 'job-1', phase: 'wake' }, delayMs: 300_000 })]);
    chain.transition('job-1', 'running');
    await expect(delay.wake(context())).resolves.toEqual({ kind: 'ended' });
    expect(chain.jobs[0].status).toBe('completed');
    expect(details()).toEqual([DETAIL.STEP_DELAYED, DETAIL.DELAY_FINISHED]);
  });
});

describe('DigestStep', () => {
  const regular = { type: 'regular', amount: 10, unit: 'minutes' };
  const fireAt = new Date('2026-03-02T10:10:00Z');

  it('opens the bucket as master when no digest is open, and waits for the window to close', async () => {
    const { chain, context, details } = running('digest', regular);
    const opened: DigestEvent[] = [];
    const { digest } = buckets({ openAsMaster: async (_scope, _key, _master, event, at) => (opened.push(event), at.getTime() === fireAt.getTime()) });
    await expect(digest.run(context())).resolves.toEqual({ kind: 'waiting' });
    expect(opened).toEqual([{ jobId: 'job-1', notificationId: 'n-1', payload: { order: 7 }, at: now }]);
    expect(chain.jobs[0]).toMatchObject({ status: 'delayed', runAt: fireAt, digestBucketKey: expect.any(String) });
    expect(chain.held.stepJobs).toEqual([expect.objectContaining({ id: 'job-1:wake', data: { jobId: 'job-1', phase: 'wake' } })]);
    expect(details()).toEqual([DETAIL.STEP_DIGESTED]);
  });

  it("merges into another job's open digest: merged, pointing at the master's notification (the frame cancels the rest)", async () => {
    const { chain, context, details } = running('digest', regular);
    const open: OpenDigest = { masterJobId: 'master-job', masterNotificationId: 'master-n', fireAt };
    const { digest } = buckets({ mergeIntoOpen: async () => open });
    await expect(digest.run(context())).resolves.toEqual({ kind: 'merged' });
    expect(chain.jobs[0]).toMatchObject({ status: 'merged', mergedDigestId: 'master-job' });
    expect(chain.pendingWrite()).toMatchObject({ kind: 'changes', notificationId: 'n-1', digestedInto: 'master-n' });
    expect(details()).toEqual([DETAIL.DIGEST_MERGED]);
  });

  it('a redelivered master finds its own digest open and waits again', async () => {
    const { chain, context } = running('digest', regular);
    const { digest } = buckets({ mergeIntoOpen: async () => ({ masterJobId: 'job-1', masterNotificationId: 'n-1', fireAt }) });
    await expect(digest.run(context())).resolves.toEqual({ kind: 'waiting' });
    expect(chain.jobs[0].status).toBe('delayed');
  });

  it('a first backoff event is not digested: recorded, the job skipped, no digest events handed on (as Novu)', async () => {
    const { chain, context, details } = running('digest', { type: 'backoff', amount: 10, unit: 'minutes', backoffAmount: 5, backoffUnit: 'minutes' });
    const { digest, calls } = buckets({});
    await expect(digest.run(context())).resolves.toEqual({ kind: 'ended' });
    expect(chain.jobs[0].status).toBe('skipped');
    expect(chain.jobs[0].digest?.events).toBeUndefined();
    expect(calls).toEqual(['recordEvent']);
    expect(details()).toEqual([DETAIL.DIGEST_SKIPPED]);
  });

  it('the wake-up closes the digest and hands every collected event on', async () => {
    const { chain, context, details } = running('digest', regular);
    const events = [{ order: 7 }, { order: 8 }].map((payload, n) => ({ jobId: `job-${n}`, notificationId: `n-${n}`, payload, at: now }));
    const { digest } = buckets({ close: async () => events });
    await expect(digest.wake(context({ ...chain.jobs[0], digestBucketKey: 'bucket' }))).resolves.toEqual({
      kind: 'ended',
      digestEvents: [{ order: 7 }, { order: 8 }],
    });
    expect(chain.jobs[0]).toMatchObject({ status: 'completed', digest: { events: [{ order: 7 }, { order: 8 }] } });
    expect(details()).toEqual([DETAIL.DIGEST_TRIGGERED_EVENTS]);
  });

  it('a bucket that stays contended asks for a retry', async () => {
    const { context } = running('digest', regular);
    const { digest } = buckets({ openAsMaster: async () => false });
    await expect(digest.run(context())).rejects.toBeInstanceOf(RetryableJobError);
  });
});
