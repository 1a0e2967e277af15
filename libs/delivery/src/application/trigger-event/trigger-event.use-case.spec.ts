import { JsonSchemas } from '../json-schemas';
import { Logger } from '@nestjs/common';
import { JobQueue, NewJob, StoreRejectedError, systemClock } from '@app/kernel';
import type { ContextRepository } from '@app/contexts';
import { TenantRepository } from '@app/tenants';
import { Workflow, WorkflowRepository } from '@app/workflows';
import { TriggerRecord } from '../../domain/trigger';
import { TriggerRepository } from '../../ports/trigger.repository.port';
import { FANOUT_QUEUE } from '../queues';
import { FANOUT_JOB_HOLD_MS, FANOUT_JOB_WINDOW_MS, MAX_TRIGGERS_PER_FANOUT_JOB, TriggerEvent, WorkflowNotFoundError } from './trigger-event.use-case';

const workflow = { id: 'wf-1', active: true, trigger: { identifier: 'welcome' }, steps: [{ active: true }] } as unknown as Workflow;

describe('TriggerEvent', () => {
  it('triggers accepted together: one the store refuses fails alone, the others reach the queue at once in one job', async () => {
    const stored: TriggerRecord[] = [];
    const added: { queue: string; job: NewJob }[] = [];
    const useCase = new TriggerEvent(
      { findByTriggerIdentifier: async () => workflow } as unknown as WorkflowRepository,
      {} as TenantRepository,
      {} as ContextRepository,
      {
        insertIfAbsent: async (record: TriggerRecord) => {
          if (record.transactionId === 'poison') throw new StoreRejectedError('INSERT INTO triggers: refused', '54000');
          stored.push(record);
          return true;
        },
      } as unknown as TriggerRepository,
      { add: async (queue: string, job: NewJob) => void added.push({ queue, job }) } as unknown as JobQueue,
      systemClock,
      new JsonSchemas(),
    );
    const scope = { organizationId: 'org', environmentId: 'env' };
    const results = await Promise.allSettled(
      ['good-1', 'poison', 'good-2'].map((transactionId) => useCase.execute({ scope, name: 'welcome', to: 'ada', transactionId })),
    );
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(StoreRejectedError);
    expect(added).toHaveLength(1);
    expect(added[0].queue).toBe(FANOUT_QUEUE);
    expect((added[0].job.data as { triggerIds: string[] }).triggerIds).toEqual(stored.map((record) => record.id));
    expect(stored.map((record) => record.transactionId)).toEqual(['good-1', 'good-2']);
  });

  it('executeMany: each trigger answers in place; those that pass share one fan-out job even when their lookups finish apart', async () => {
    const stored: TriggerRecord[] = [];
    const added: { queue: string; job: NewJob }[] = [];
    let lookups = 0;
    const useCase = new TriggerEvent(
      {
        // lookups that finish on different turns of the event loop, as cache misses and hits do
        findByTriggerIdentifier: async (_: unknown, name: string) => {
          for (let i = 0; i < ++lookups % 3; i++) await new Promise((resolve) => setImmediate(resolve));
          return name === 'welcome' ? workflow : null;
        },
      } as unknown as WorkflowRepository,
      {} as TenantRepository,
      {} as ContextRepository,
      { insertIfAbsent: async (record: TriggerRecord) => (stored.push(record), true) } as unknown as TriggerRepository,
      { add: async (queue: string, job: NewJob) => void added.push({ queue, job }) } as unknown as JobQueue,
      systemClock,
      new JsonSchemas(),
    );
    const scope = { organizationId: 'org', environmentId: 'env' };
    const results = await useCase.executeMany([
      ...['a', 'b', 'c', 'd'].map((to) => ({ scope, name: 'welcome', to })),
      { scope, name: 'unknown', to: 'e' },
      { scope, name: 'welcome', broadcast: true },
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[4] as PromiseRejectedResult).reason).toBeInstanceOf(WorkflowNotFoundError);
    expect(added).toHaveLength(1);
    expect((added[0].job.data as { triggerIds: string[] }).triggerIds).toHaveLength(5);
    expect(stored[4]).toMatchObject({ to: { subscribers: [], topics: [] }, broadcast: true });
    // the recipients are stored parsed: the fan-out reads them as they are
    expect(stored[0]).toMatchObject({ to: { subscribers: [{ subscriberId: 'a' }], topics: [] } });
    expect(stored[0]).not.toHaveProperty('broadcast');
  });

  it('tells the caller once the trigger only waits for the insert, before the insert has committed, and answers after it', async () => {
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    const useCase = new TriggerEvent(
      { findByTriggerIdentifier: async () => workflow } as unknown as WorkflowRepository,
      {} as TenantRepository,
      {} as ContextRepository,
      { insertIfAbsent: async () => committed.then(() => true) } as unknown as TriggerRepository,
      { add: async () => undefined } as unknown as JobQueue,
      systemClock,
      new JsonSchemas(),
    );
    const events: string[] = [];
    const scope = { organizationId: 'org', environmentId: 'env' };
    const answered = useCase
      .execute({ scope, name: 'welcome', to: 'ada' }, { onceWaitingForStore: () => events.push('waiting') })
      .then(() => events.push('answered'));
    const many = useCase
      .executeMany([{ scope, name: 'welcome', to: 'bob' }], { onceWaitingForStore: () => events.push('many waiting') })
      .then(() => events.push('many answered'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual(['waiting', 'many waiting']);
    commit();
    await Promise.all([answered, many]);
    expect(events.slice(2).sort()).toEqual(['answered', 'many answered']);
  });

  it('answers while the queue fails, with one warning for the outage and one line when enqueues succeed again', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    let queueUp = false;
    const useCase = new TriggerEvent(
      { findByTriggerIdentifier: async () => workflow } as unknown as WorkflowRepository,
      {} as TenantRepository,
      {} as ContextRepository,
      { insertIfAbsent: async () => true } as unknown as TriggerRepository,
      { add: async () => (queueUp ? undefined : Promise.reject(new Error('Command timed out'))) } as unknown as JobQueue,
      systemClock,
      new JsonSchemas(),
    );
    const scope = { organizationId: 'org', environmentId: 'env' };
    const send = async (count: number) => {
      // one at a time: each trigger is a fan-out job of its own
      for (let i = 0; i < count; i++) await useCase.execute({ scope, name: 'welcome', to: `s${i}` });
      await new Promise((resolve) => setImmediate(resolve));
    };
    try {
      await send(5);
      queueUp = true;
      await send(3);
      expect(warn.mock.calls.map(([message]) => message)).toEqual([
        expect.stringMatching(
          /^Fan-out jobs not confirmed by the queue \(Command timed out\): their triggers are stored, and the workers' recovery sweep enqueues any/,
        ),
      ]);
      expect(log.mock.calls).toEqual([['Fan-out jobs are enqueued again']]);
    } finally {
      warn.mockRestore();
      log.mockRestore();
    }
  });

  describe('fan-out jobs shared by acceptance batches whose inserts overlap', () => {
    const scope = { organizationId: 'org', environmentId: 'env' };
    let now: number;
    let commits: Map<string, () => void>;
    let added: NewJob[];
    let useCase: TriggerEvent;
    let answers: Promise<unknown>[];

    beforeEach(() => {
      now = Date.parse('2030-01-01T00:00:00Z');
      commits = new Map();
      added = [];
      answers = [];
      useCase = new TriggerEvent(
        { findByTriggerIdentifier: async () => workflow } as unknown as WorkflowRepository,
        {} as TenantRepository,
        {} as ContextRepository,
        // each insert waits until the test commits it, by transactionId
        {
          insertIfAbsent: (record: TriggerRecord) => new Promise((resolve) => commits.set(record.transactionId, () => resolve(true))),
        } as unknown as TriggerRepository,
        {
          add: async (_queue: string, job: NewJob) => void added.push(job),
          addBulk: async (_queue: string, jobs: NewJob[]) => void added.push(...jobs),
        } as unknown as JobQueue,
        { now: () => new Date(now) },
        new JsonSchemas(),
      );
    });

    /** Starts one acceptance batch (its triggers join in one turn) and waits until its inserts are under way. */
    const startBatch = async (...transactionIds: string[]) => {
      answers.push(...transactionIds.map((transactionId) => useCase.execute({ scope, name: 'welcome', to: 'ada', transactionId })));
      while (!transactionIds.every((id) => commits.has(id))) await new Promise((resolve) => setImmediate(resolve));
    };
    const commit = async (...transactionIds: string[]) => {
      transactionIds.forEach((id) => commits.get(id)!());
      await new Promise((resolve) => setImmediate(resolve));
    };
    const jobOf = (job: NewJob) => ({ id: job.id, triggerIds: (job.data as { triggerIds: string[] }).triggerIds.length });

    it('one job for batches that overlap, added once the last of them has written; a batch alone has its own, named after its trigger', async () => {
      await startBatch('a1', 'a2');
      await startBatch('b1');
      await commit('a1', 'a2');
      expect(added).toEqual([]); // b is still writing
      await startBatch('c1');
      await commit('b1');
      expect(added).toEqual([]);
      await commit('c1');
      expect(added).toHaveLength(1);
      expect(jobOf(added[0]).triggerIds).toBe(4);

      await startBatch('d1');
      await commit('d1');
      await Promise.all(answers);
      expect(added).toHaveLength(2);
      expect(added[1].data).toEqual({ triggerIds: [added[1].id] });
    });

    it(`goes without a batch still writing after ${FANOUT_JOB_HOLD_MS} ms; that batch's triggers then go as jobs of their own`, async () => {
      jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
      try {
        await startBatch('a1');
        await startBatch('hung-1', 'hung-2');
        await commit('a1');
        jest.advanceTimersByTime(FANOUT_JOB_HOLD_MS - 1);
        expect(added).toEqual([]); // within the hold, the job waits for the batch still writing
        jest.advanceTimersByTime(1);
        expect(added.map(jobOf)).toEqual([{ id: added[0].id, triggerIds: 1 }]);
        await startBatch('b1'); // a new job: the one that went takes no batch
        await commit('hung-1', 'hung-2');
        await Promise.all(answers.slice(0, 3));
        expect(added.slice(1).map((job) => job.data)).toEqual(added.slice(1).map((job) => ({ triggerIds: [job.id] })));
        expect(added).toHaveLength(3);
        await commit('b1');
        await Promise.all(answers);
        expect(added.map(jobOf).at(-1)).toEqual({ id: added.at(-1)!.id, triggerIds: 1 });
        jest.advanceTimersByTime(FANOUT_JOB_HOLD_MS); // holds of jobs already added add nothing
        expect(added).toHaveLength(4);
      } finally {
        jest.useRealTimers();
      }
    });

    it(`takes no batch once it holds ${MAX_TRIGGERS_PER_FANOUT_JOB} triggers or is ${FANOUT_JOB_WINDOW_MS} ms old`, async () => {
      const first = Array.from({ length: MAX_TRIGGERS_PER_FANOUT_JOB - 1 }, (_, i) => `first-${i}`);
      await startBatch(...first);
      await startBatch('fits');
      await startBatch('next-job-1', 'next-job-2'); // would make 101
      now += FANOUT_JOB_WINDOW_MS;
      await startBatch('third-job');
      await commit(...first, 'fits', 'next-job-1', 'next-job-2', 'third-job');
      await Promise.all(answers);
      expect(added.map(jobOf).map(({ triggerIds }) => triggerIds)).toEqual([MAX_TRIGGERS_PER_FANOUT_JOB, 2, 1]);
    });
  });
});
