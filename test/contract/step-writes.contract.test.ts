import { ExecutionDetail, Job, Notification, STEPS_QUEUE, StepJobData, stepJob } from '@app/delivery';
import { JobQueue, NewJob, systemClock } from '@app/kernel';
import { UnwrittenChain } from '../../libs/delivery/src/application/fan-out/unwritten-chain';
import { RunAheadWrites, StoreStepWrites } from '../../libs/delivery/src/application/run-step/step-writes';
import {
  SqlChainRepository,
  SqlDigestBucketRepository,
  SqlExecutionDetailRepository,
  SqlJobRepository,
  SqlMessageRepository,
  SqlNotificationRepository,
  SqlThrottleWindowRepository,
} from '../../libs/store-sql/src/delivery';
import { SQL_STORES } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';
import { Repositories } from '../fakes/memory';
import { executionDetail, jobChain, message, newScope, notification } from './delivery-fixtures';

/** One notification's chain behind a StepWrites, and a way to see what the writes did. */
interface ChainUnderTest {
  writes: RunAheadWrites;
  job(id: string): Promise<Job | undefined>;
  details(): Promise<ExecutionDetail[]>;
  /** Ids of the step jobs handed over for the queue. */
  enqueued(): Promise<string[]>;
}

type OpenChain = (n: Notification, jobs: Job[]) => Promise<ChainUnderTest>;

/**
 * What a step may count on from RunAheadWrites, whichever implementation it is given: the store
 * and the queue (StoreStepWrites), or a chain the fan-out has not written yet (UnwrittenChain).
 */
function stepWritesContract(setup: () => Promise<{ openChain: OpenChain; close(): Promise<void> }>) {
  let openChain: OpenChain;
  let close: () => Promise<void>;
  beforeAll(async () => ({ openChain, close } = await setup()));
  afterAll(() => close());

  /** A notification's chain as the fan-out builds it: the first job queued, the others pending. */
  const built = (...types: Job['type'][]) => {
    const n = notification(newScope());
    const jobs = jobChain(n, types).map((j, index) => (index === 0 ? { ...j, status: 'queued' as const } : j));
    return { n, jobs };
  };

  it('moves a job by compare-and-set: an allowed move applies its patch, a terminal job never moves, an unknown one is refused', async () => {
    const { n, jobs } = built('in_app', 'chat');
    const chain = await openChain(n, jobs);
    const [first] = jobs;
    const runAt = new Date('2030-01-01T00:00:00Z');
    expect(await chain.writes.transition(first.id, 'running')).toBe(true);
    expect(await chain.writes.transition(first.id, 'delayed', { runAt })).toBe(true);
    expect(await chain.writes.transition(first.id, 'running', { runAt: null, attempts: 2 })).toBe(true);
    expect(await chain.writes.transition(first.id, 'completed', { providerId: 'novu' })).toBe(true);
    expect(await chain.writes.transition(first.id, 'failed', { error: { message: 'late' } })).toBe(false);
    expect(await chain.writes.transition('no-such-job', 'running')).toBe(false);

    const stored = await chain.job(first.id);
    expect(stored).toMatchObject({ status: 'completed', providerId: 'novu', attempts: 2 });
    expect(stored?.runAt).toBeUndefined();
    expect(stored?.error).toBeUndefined();
    expect((await chain.job(jobs[1].id))?.status).toBe('pending');
  });

  it('queues the next pending job once, carrying the digest events when given', async () => {
    const { n, jobs } = built('digest', 'in_app', 'chat');
    const chain = await openChain(n, jobs);
    const [digest, inApp, chat] = jobs;
    const events = [{ order: 1 }, { order: 2 }];
    expect(await chain.writes.queueNext(digest.id, events)).toMatchObject({ id: inApp.id, status: 'queued', digest: { events } });
    expect(await chain.writes.queueNext(digest.id)).toBeNull(); // it has moved already
    expect(await chain.writes.queueNext(chat.id)).toBeNull(); // the end of the chain
    expect(await chain.job(inApp.id)).toMatchObject({ status: 'queued', digest: { events } });
    expect((await chain.job(chat.id))?.status).toBe('pending');
  });

  it('cancels the not-yet-running rest of the chain after a job, and nothing after an unknown one', async () => {
    const { n, jobs } = built('in_app', 'chat', 'push', 'sms');
    const chain = await openChain(n, jobs);
    const [first, second, third, fourth] = jobs;
    await chain.writes.transition(first.id, 'running');
    await chain.writes.transition(third.id, 'running');
    expect((await chain.writes.cancelChildren(n.id, first.id)).sort()).toEqual([second.id, fourth.id].sort());
    expect((await Promise.all(jobs.map((j) => chain.job(j.id)))).map((j) => j?.status)).toEqual(['running', 'canceled', 'running', 'canceled']);
    expect(await chain.writes.cancelChildren(n.id, 'no-such-job')).toEqual([]);
    expect(await chain.writes.cancelChildren(n.id, first.id)).toEqual([]); // nothing left to cancel
  });

  it('inserts a message once: inserting its id again returns the first one', async () => {
    const { n, jobs } = built('in_app');
    const chain = await openChain(n, jobs);
    const first = message(jobs[0], { content: 'Hello Ada' });
    expect(await chain.writes.insertMessage(first)).toEqual({ message: first, created: true });
    const again = await chain.writes.insertMessage({ ...first, content: 'Hello again' });
    expect(again.created).toBe(false);
    expect(again.message).toMatchObject({ id: first.id, content: 'Hello Ada' });
  });

  it('keeps the details it is given and hands step jobs over for the queue', async () => {
    const { n, jobs } = built('in_app', 'chat');
    const chain = await openChain(n, jobs);
    const detail = executionDetail(jobs[0], { detail: 'Message sent' });
    await chain.writes.appendDetail(detail);
    await chain.writes.enqueue(stepJob(jobs[1].id, { jobId: jobs[1].id }));
    expect((await chain.details()).map((d) => [d.id, d.detail])).toEqual([[detail.id, 'Message sent']]);
    expect(await chain.enqueued()).toEqual([jobs[1].id]);
  });
}

type DeliveryRepositories = Pick<Repositories, 'jobs' | 'chains' | 'executionDetails' | 'messages' | 'digestBuckets' | 'notifications' | 'throttleWindows'>;

/** StoreStepWrites over one store's repositories, each chain written there first. */
function storeStepWrites(open: () => Promise<{ repositories: DeliveryRepositories; close(): Promise<void> }>) {
  return async () => {
    const { repositories, close } = await open();
    const { jobs, chains, executionDetails: details, messages, digestBuckets, notifications, throttleWindows } = repositories;
    return {
      async openChain(n: Notification, chainJobs: Job[]) {
        await chains.write([{ kind: 'new', notification: n, jobs: chainJobs, messages: [], details: [] }]);
        // The queue is not what is under test: one that keeps what it is given.
        const added: NewJob<StepJobData>[] = [];
        const queue = { add: async (name: string, job: NewJob<StepJobData>) => void (name === STEPS_QUEUE && added.push(job)) } as unknown as JobQueue;
        const writes = new StoreStepWrites(jobs, details, messages, digestBuckets, notifications, throttleWindows, queue);
        return {
          writes,
          job: async (id: string) => (await jobs.findById(id)) ?? undefined,
          details: () =>
            details.listByJobIds(
              n,
              chainJobs.map((j) => j.id),
            ),
          enqueued: async () => added.map((job) => job.id),
        };
      },
      close,
    };
  };
}

describe.each(SQL_STORES)('StoreStepWrites on $name', (store) => {
  stepWritesContract(
    storeStepWrites(async () => {
      const sql = await store.open();
      const repositories: DeliveryRepositories = {
        jobs: new SqlJobRepository(sql),
        chains: new SqlChainRepository(sql),
        executionDetails: new SqlExecutionDetailRepository(sql),
        messages: new SqlMessageRepository(sql),
        digestBuckets: new SqlDigestBucketRepository(sql),
        throttleWindows: new SqlThrottleWindowRepository(sql),
        notifications: new SqlNotificationRepository(sql),
      };
      return { repositories, close: () => sql.close() };
    }),
  );
});

describeMongoContract('StoreStepWrites', (store) => stepWritesContract(storeStepWrites(() => store.open())));

describe('UnwrittenChain', () => {
  stepWritesContract(async () => ({
    async openChain(_n, jobs) {
      const chain = new UnwrittenChain(jobs, systemClock);
      return {
        writes: chain,
        job: async (id) => chain.jobs.find((j) => j.id === id),
        details: async () => chain.details,
        enqueued: async () => chain.enqueued.map((job) => job.id),
      };
    },
    close: async () => undefined,
  }));
});
