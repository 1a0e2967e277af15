import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import Redis from 'ioredis';
import { DeferredJobError, JobQueue, QueueJobStore, QueuedJob, RetryableJobError } from '@app/kernel';
import { BullJobQueue, EmbeddedJobQueue } from '@app/queue';
import { OpenedStore, REPOSITORY_STORES, RepositoryStoreFixture } from '../support/sql-stores';
import { TEST_REDIS_URL, uniqueName } from '../support/test-env';
import { describeMongoContract } from '../support/mongo-store';

/** One queue backend under test: consumers on it, and a way to kill a consumer mid-job. */
interface QueueBackend {
  name: string;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
  /** A new JobQueue (a consumer, as another process would have) on the same backend. */
  connect(): JobQueue;
  /** Makes a consumer take `jobId` from `queueName` and die without finishing it. */
  crashMidJob(queueName: string, jobId: string): Promise<void>;
}

const LOCK_MS = 2_000;
const STALLED_MS = 1_000;

function bullBackend(): QueueBackend {
  let prefix = '';
  const children: ChildProcess[] = [];
  return {
    name: 'Bull on Redis',
    async setUp() {
      prefix = uniqueName('qtest');
    },
    async tearDown() {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      const redis = new Redis(TEST_REDIS_URL);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    },
    connect: () => new BullJobQueue({ redisUrl: TEST_REDIS_URL, prefix, lockDurationMs: LOCK_MS, stalledIntervalMs: STALLED_MS }),
    async crashMidJob(queueName, jobId) {
      const root = join(__dirname, '..', '..');
      const child = spawn(
        process.execPath,
        ['-r', './test/support/ts-register.js', 'test/support/bull-crash-consumer.ts', TEST_REDIS_URL, prefix, queueName, String(LOCK_MS), String(STALLED_MS)],
        { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } },
      );
      children.push(child);
      await new Promise<void>((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (chunk) => {
          output += chunk;
          if (output.includes(`active ${jobId}\n`)) resolve();
        });
        child.on('exit', (code) => reject(new Error(`crash consumer exited early (${code}): ${output}`)));
      });
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

function embeddedBackend(store: RepositoryStoreFixture): QueueBackend {
  let opened: OpenedStore;
  let jobs: QueueJobStore;
  return {
    name: `embedded on ${store.name}`,
    async setUp() {
      opened = await store.open();
      jobs = opened.repositories.queueJobs;
    },
    async tearDown() {
      await opened.close();
    },
    connect: () => new EmbeddedJobQueue(jobs, { pollIntervalMs: 50, leaseMs: LOCK_MS }),
    async crashMidJob(queueName, jobId) {
      // A consumer that stops dead (no lease renewal, no outcome), as its process would on SIGKILL.
      const doomed = new EmbeddedJobQueue(jobs, { pollIntervalMs: 50, leaseMs: LOCK_MS });
      let taken!: () => void;
      const holding = new Promise<void>((resolve) => (taken = resolve));
      doomed.process(queueName, { concurrency: 1 }, async (job) => {
        if (job.id === jobId) taken();
        await new Promise(() => undefined);
      });
      await holding;
      await doomed.close({ force: true });
    },
  };
}

const BACKENDS: QueueBackend[] = [bullBackend(), ...REPOSITORY_STORES.map(embeddedBackend)];

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// Timers and two clocks (Node's, the store's) may disagree by a few milliseconds.
const CLOCK_SLACK_MS = 25;

/** The JobQueue contract; Bull and the embedded queue on every store must pass it. */
function jobQueueContract(backend: QueueBackend) {
  let opened: JobQueue[] = [];
  let queue: JobQueue;
  let queueName: string;
  const connect = () => {
    const q = backend.connect();
    opened.push(q);
    return q;
  };

  beforeAll(() => backend.setUp());
  afterAll(() => backend.tearDown());
  beforeEach(() => {
    opened = [];
    queue = connect();
    queueName = uniqueName('jobs');
  });
  afterEach(async () => {
    await Promise.all(opened.map((q) => q.close({ force: true })));
  });

  /** Starts consuming with a handler that records every run. */
  function consume(handler: (job: QueuedJob<any>) => Promise<void> = async () => undefined, concurrency = 1) {
    const runs: { id: string; data: any; attemptsMade: number; attempts: number; at: number }[] = [];
    queue.process(queueName, { concurrency }, async (job) => {
      runs.push({ id: job.id, data: job.data, attemptsMade: job.attemptsMade, attempts: job.attempts, at: Date.now() });
      await handler(job);
    });
    return runs;
  }
  const stateOf = (id: string) => queue.getJobState(queueName, id);
  const untilState = (id: string, state: string) => waitFor(async () => (await stateOf(id)) === state, `${id} to be ${state}`);

  it('runs an added job once, with its data and attempt counters, and reports it completed', async () => {
    await queue.add(queueName, { id: 'job-1', data: { subscriberId: 's1', nested: { n: 1 } } });
    expect(await stateOf('job-1')).toBe('waiting');
    const runs = consume();
    await untilState('job-1', 'completed');
    expect(runs).toEqual([expect.objectContaining({ id: 'job-1', data: { subscriberId: 's1', nested: { n: 1 } }, attemptsMade: 0, attempts: 1 })]);
    expect(await queue.getCounts(queueName)).toEqual({ waiting: 0, delayed: 0, active: 0, completed: 1, failed: 0 });
    expect(await stateOf('never-added')).toBeUndefined();
  });

  it('deduplicates by id: add, addBulk and re-adding a completed job are no-ops', async () => {
    await queue.add(queueName, { id: 'a', data: { v: 1 } });
    await queue.add(queueName, { id: 'a', data: { v: 2 } });
    await queue.addBulk<Record<string, number>>(queueName, [
      { id: 'a', data: { v: 3 } },
      { id: 'b', data: { v: 1 } },
      { id: 'b', data: { v: 2 } },
      ...Array.from({ length: 40 }, (_, i) => ({ id: `bulk-${i}`, data: { i } })),
    ]);
    expect((await queue.getCounts(queueName)).waiting).toBe(42);
    const runs = consume();
    await untilState('bulk-39', 'completed');
    await queue.add(queueName, { id: 'a', data: { v: 4 } });
    await queue.add(queueName, { id: 'sentinel', data: {} }); // FIFO: a re-run of "a" would come first
    await untilState('sentinel', 'completed');
    expect(runs.filter((r) => r.id === 'a').map((r) => r.data)).toEqual([{ v: 1 }]);
    expect(runs.filter((r) => r.id === 'b').map((r) => r.data)).toEqual([{ v: 1 }]);
    expect(runs).toHaveLength(43);
    expect(runs.slice(0, 2).map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('holds a delayed job until its delay has passed, running others first', async () => {
    const addedAt = Date.now();
    await queue.addBulk(queueName, [
      { id: 'later', data: {}, delayMs: 300 },
      { id: 'now', data: {} },
    ]);
    expect(await stateOf('later')).toBe('delayed');
    expect((await queue.getCounts(queueName)).delayed).toBe(1);
    const runs = consume();
    await untilState('later', 'completed');
    expect(runs.map((r) => r.id)).toEqual(['now', 'later']);
    expect(runs[1].at - addedAt).toBeGreaterThanOrEqual(300 - CLOCK_SLACK_MS);
  });

  it('reports how long the job next in line has waited; undefined while none waits', async () => {
    const ageNow = () => queue.getOldestWaitingAgeMs(queueName);
    expect(await ageNow()).toBeUndefined();
    await queue.add(queueName, { id: 'not-yet', data: {}, delayMs: 60_000 });
    expect(await ageNow()).toBeUndefined(); // a delayed job is not waiting
    const addStart = Date.now();
    await queue.add(queueName, { id: 'first', data: {} });
    const addEnd = Date.now();
    await sleep(300);
    await queue.add(queueName, { id: 'second', data: {} });
    const askStart = Date.now();
    const age = (await ageNow())!;
    const askEnd = Date.now();
    // The older of the two counts: it has waited from its add until the question.
    expect(age).toBeGreaterThanOrEqual(askStart - addEnd - CLOCK_SLACK_MS);
    expect(age).toBeLessThanOrEqual(askEnd - addStart + CLOCK_SLACK_MS);
    consume();
    await untilState('second', 'completed');
    expect(await ageNow()).toBeUndefined();
    expect(await queue.remove(queueName, 'not-yet')).toBe(true);
  });

  it('counts a delayed job as waiting from when its delay ended, not from its add', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    consume(async (job) => {
      if (job.id === 'blocker') await released;
    });
    await queue.add(queueName, { id: 'blocker', data: {} });
    await untilState('blocker', 'active'); // the only consumer slot is taken: what comes due waits
    const addStart = Date.now();
    await queue.add(queueName, { id: 'later', data: {}, delayMs: 300 });
    const addEnd = Date.now();
    await untilState('later', 'waiting');
    await sleep(200);
    const askStart = Date.now();
    const age = (await queue.getOldestWaitingAgeMs(queueName))!;
    const askEnd = Date.now();
    expect(age).toBeGreaterThanOrEqual(askStart - (addEnd + 300) - CLOCK_SLACK_MS);
    expect(age).toBeLessThanOrEqual(askEnd - (addStart + 300) + CLOCK_SLACK_MS);
    release();
    await untilState('later', 'completed');
    expect(await queue.getOldestWaitingAgeMs(queueName)).toBeUndefined();
  });

  it('retries a RetryableJobError with exponential backoff, then succeeds', async () => {
    await queue.add(queueName, { id: 'flaky', data: {}, attempts: 3, backoff: { type: 'exponential', delayMs: 100 } });
    const runs = consume(async (job) => {
      if (job.attemptsMade < 2) throw new RetryableJobError('provider timed out');
    });
    await untilState('flaky', 'completed');
    expect(runs.map((r) => [r.attemptsMade, r.attempts])).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
    expect(runs[1].at - runs[0].at).toBeGreaterThanOrEqual(100 - CLOCK_SLACK_MS); // d
    expect(runs[2].at - runs[1].at).toBeGreaterThanOrEqual(300 - CLOCK_SLACK_MS); // 3d
  });

  it('waits retryAfterMs when the error names it, and fails once the attempts are used up', async () => {
    await queue.add(queueName, { id: 'limited', data: {}, attempts: 2, backoff: { type: 'exponential', delayMs: 1 } });
    const runs = consume(async () => {
      throw new RetryableJobError('rate limited', 250);
    });
    await untilState('limited', 'failed');
    expect(runs.map((r) => r.attemptsMade)).toEqual([0, 1]);
    expect(runs[1].at - runs[0].at).toBeGreaterThanOrEqual(250 - CLOCK_SLACK_MS);
    expect((await queue.getCounts(queueName)).failed).toBe(1);
  });

  it('runs a deferred job again after retryAfterMs without using an attempt, even a job allowed one run', async () => {
    await queue.add(queueName, { id: 'deferred', data: {}, attempts: 1 });
    let deferrals = 2;
    const runs = consume(async () => {
      if (deferrals-- > 0) throw new DeferredJobError('the store does not answer', 150);
    });
    await untilState('deferred', 'completed');
    expect(runs.map((r) => [r.attemptsMade, r.attempts])).toEqual([
      [0, 1],
      [0, 1],
      [0, 1],
    ]);
    expect(runs[1].at - runs[0].at).toBeGreaterThanOrEqual(150 - CLOCK_SLACK_MS);
  });

  it('takes no new job while paused, and takes them again on resume', async () => {
    const runs = consume();
    await queue.add(queueName, { id: 'before', data: {} });
    await untilState('before', 'completed');
    await queue.pause();
    await queue.pause(); // a no-op when paused
    await queue.add(queueName, { id: 'while-paused', data: {} });
    await sleep(400);
    expect(runs.map((r) => r.id)).toEqual(['before']);
    await queue.resume();
    await untilState('while-paused', 'completed');
    expect(runs.map((r) => r.id)).toEqual(['before', 'while-paused']);
  });

  it('fails a job at once, without retry, on any other error', async () => {
    await queue.add(queueName, { id: 'broken', data: {}, attempts: 5, backoff: { type: 'exponential', delayMs: 10 } });
    const runs = consume(async (job) => {
      if (job.id === 'broken') throw new Error('invalid recipient');
    });
    await untilState('broken', 'failed');
    await queue.add(queueName, { id: 'sentinel', data: {} });
    await untilState('sentinel', 'completed');
    expect(runs.map((r) => r.id)).toEqual(['broken', 'sentinel']);
  });

  it('runs up to `concurrency` jobs at the same time, never more', async () => {
    await queue.addBulk(
      queueName,
      Array.from({ length: 9 }, (_, i) => ({ id: `c${i}`, data: {} })),
    );
    let active = 0;
    let most = 0;
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const fallback = setTimeout(() => openGate(), 5_000); // fails on `most` rather than hanging
    const runs = consume(async () => {
      active++;
      most = Math.max(most, active);
      if (active === 3) openGate(); // hold the first jobs until three run together
      await gate;
      active--;
    }, 3);
    await waitFor(async () => (await queue.getCounts(queueName)).completed === 9, 'all jobs to complete');
    clearTimeout(fallback);
    expect(most).toBe(3);
    expect(runs).toHaveLength(9);
  });

  it('never gives one job to two consumers', async () => {
    await queue.addBulk(
      queueName,
      Array.from({ length: 30 }, (_, i) => ({ id: `s${i}`, data: {} })),
    );
    const seen: string[] = [];
    const other = connect();
    const work = async (job: QueuedJob) => {
      seen.push(job.id);
      await sleep(5);
    };
    queue.process(queueName, { concurrency: 2 }, work);
    other.process(queueName, { concurrency: 2 }, work);
    await waitFor(async () => (await queue.getCounts(queueName)).completed === 30, 'all jobs to complete');
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
  });

  it('removes a delayed job so it never runs; a running or unknown job is not removed', async () => {
    await queue.add(queueName, { id: 'cancelled', data: {}, delayMs: 200 });
    expect(await queue.remove(queueName, 'cancelled')).toBe(true);
    expect(await stateOf('cancelled')).toBeUndefined();
    expect(await queue.remove(queueName, 'unknown')).toBe(false);

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const runs = consume(async (job) => {
      if (job.id === 'busy') await released;
    });
    await queue.add(queueName, { id: 'busy', data: {} });
    await untilState('busy', 'active');
    expect(await queue.remove(queueName, 'busy')).toBe(false);
    release();
    await untilState('busy', 'completed');
    await queue.add(queueName, { id: 'sentinel', data: {}, delayMs: 300 });
    await untilState('sentinel', 'completed');
    expect(runs.map((r) => r.id)).toEqual(['busy', 'sentinel']);
    // a removed id is free again
    await queue.add(queueName, { id: 'cancelled', data: {} });
    await untilState('cancelled', 'completed');
  });

  it('on close, waits for running jobs to finish', async () => {
    let finished = false;
    consume(async () => {
      await sleep(200);
      finished = true;
    });
    await queue.add(queueName, { id: 'slow', data: {} });
    await waitFor(async () => (await stateOf('slow')) === 'active', 'the job to start');
    await queue.close();
    expect(finished).toBe(true);
    const observer = connect();
    expect(await observer.getJobState(queueName, 'slow')).toBe('completed');
  });

  it('redelivers the job of a consumer that died mid-job to another consumer', async () => {
    await queue.add(queueName, { id: 'orphan', data: { n: 1 } });
    await backend.crashMidJob(queueName, 'orphan');
    expect(await stateOf('orphan')).toBe('active'); // still leased by the dead consumer
    const runs = consume();
    await untilState('orphan', 'completed');
    expect(runs.map((r) => [r.id, r.data])).toEqual([['orphan', { n: 1 }]]);
  }, 30_000);
}

describe.each(BACKENDS)('JobQueue contract: $name', (backend) => jobQueueContract(backend));

describeMongoContract('JobQueue contract: embedded', (store) => jobQueueContract(embeddedBackend(store)));
