import type { ContextRepository } from '@app/contexts';
import { JsonSchemas } from '../json-schemas';
import { Clock, EnvironmentScope, JobQueue, JobState, NewJob } from '@app/kernel';
import { TenantRepository } from '@app/tenants';
import { Workflow, WorkflowRepository } from '@app/workflows';
import { TriggerRecord, TriggerStatus } from '../../domain/trigger';
import { TriggerRepository } from '../../ports/trigger.repository.port';
import { FANOUT_JOB_HOLD_MS, TriggerEvent } from '../trigger-event/trigger-event.use-case';
import { RECONCILE_AFTER_MS, ReconcileTriggers } from './reconcile-triggers.use-case';

/** The triggers table, in memory: just what acceptance and the reconciler use. */
class MemoryTriggers implements Pick<TriggerRepository, 'insertIfAbsent' | 'findStaleAccepted' | 'markStatus'> {
  readonly records = new Map<string, TriggerRecord>();
  async insertIfAbsent(record: TriggerRecord) {
    if ([...this.records.values()].some((r) => r.environmentId === record.environmentId && r.transactionId === record.transactionId)) return false;
    this.records.set(record.id, { ...record });
    return true;
  }
  async findStaleAccepted(olderThan: Date, limit: number) {
    return [...this.records.values()].filter((r) => r.status === 'accepted' && r.createdAt < olderThan).slice(0, limit);
  }
  async markStatus(id: string, from: TriggerStatus[], to: TriggerStatus) {
    const record = this.records.get(id);
    if (!record || !from.includes(record.status)) return false;
    record.status = to;
    return true;
  }
}

/** A queue that can be made unreachable, and whose held jobs can be put in any state. */
class FlakyQueue implements Pick<JobQueue, 'add' | 'addBulk' | 'getJobState' | 'remove'> {
  reachable = true;
  readonly held = new Map<string, JobState>();
  readonly added: string[] = [];
  readonly data = new Map<string, unknown>();
  async add<T>(queueName: string, job: NewJob<T>) {
    await this.addBulk(queueName, [job]);
  }
  async addBulk<T>(_queueName: string, jobs: NewJob<T>[]) {
    if (!this.reachable) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
    for (const job of jobs) {
      if (this.held.has(job.id)) continue;
      this.held.set(job.id, 'waiting');
      this.added.push(job.id);
      this.data.set(job.id, job.data);
    }
  }
  async getJobState(_queueName: string, jobId: string) {
    if (!this.reachable) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
    return this.held.get(jobId);
  }
  async remove(_queueName: string, jobId: string) {
    return this.held.delete(jobId);
  }
}

const scope: EnvironmentScope = { organizationId: 'o'.repeat(24), environmentId: 'e'.repeat(24) };
const workflow = { id: 'w'.repeat(24), active: true, steps: [{ active: true }], trigger: { identifier: 'welcome' } } as unknown as Workflow;

describe('durable acceptance: TriggerEvent + ReconcileTriggers with a queue that fails', () => {
  let now: Date;
  let triggers: MemoryTriggers;
  let queue: FlakyQueue;
  let accept: TriggerEvent;
  let reconcile: ReconcileTriggers;

  beforeEach(() => {
    now = new Date('2030-01-01T00:00:00Z');
    const clock: Clock = { now: () => now };
    triggers = new MemoryTriggers();
    queue = new FlakyQueue();
    const workflows = { findByTriggerIdentifier: async () => workflow } as unknown as WorkflowRepository;
    const tenants = { findByIdentifier: async () => null } as unknown as TenantRepository;
    accept = new TriggerEvent(
      workflows,
      tenants,
      {} as ContextRepository,
      triggers as unknown as TriggerRepository,
      queue as unknown as JobQueue,
      clock,
      new JsonSchemas(),
    );
    reconcile = new ReconcileTriggers(triggers as unknown as TriggerRepository, queue as unknown as JobQueue, clock);
  });

  const later = (ms: number) => (now = new Date(now.getTime() + ms));

  it('accepts a trigger while the queue is unreachable, and the reconciler enqueues it once the wait is over', async () => {
    queue.reachable = false;
    const answer = await accept.execute({ scope, name: 'welcome', to: 'subscriber-1', transactionId: 'txn-1' });
    expect(answer).toEqual({ acknowledged: true, status: 'processed', transactionId: 'txn-1' });
    const [record] = triggers.records.values();
    expect(record).toMatchObject({ transactionId: 'txn-1', status: 'accepted' });
    expect(queue.added).toEqual([]);

    queue.reachable = true;
    expect(await reconcile.execute()).toBe(0); // too recent: its enqueue may still be under way
    later(RECONCILE_AFTER_MS + 1);
    expect(await reconcile.execute()).toBe(1);
    expect(queue.added).toEqual([record.id]); // the fan-out job id is the trigger id
  });

  it('fails (to be logged and retried next round) while the queue is still unreachable, losing nothing', async () => {
    queue.reachable = false;
    await accept.execute({ scope, name: 'welcome', to: 'subscriber-1', transactionId: 'txn-2' });
    later(RECONCILE_AFTER_MS + 1);
    await expect(reconcile.execute()).rejects.toThrow(/ECONNREFUSED/);
    expect([...triggers.records.values()][0].status).toBe('accepted');
    queue.reachable = true;
    expect(await reconcile.execute()).toBe(1);
  });

  it('leaves alone a trigger whose fan-out still waits in the queue (a backlog), and re-adds one whose fan-out failed for good', async () => {
    await accept.execute({ scope, name: 'welcome', to: 'a', transactionId: 'waiting' });
    await accept.execute({ scope, name: 'welcome', to: 'b', transactionId: 'failed' });
    const [waiting, failed] = triggers.records.values();
    queue.held.set(failed.id, 'failed');
    queue.added.length = 0;
    later(RECONCILE_AFTER_MS + 1);
    expect(await reconcile.execute()).toBe(1);
    expect(queue.added).toEqual([failed.id]);
    expect(queue.held.get(waiting.id)).toBe('waiting');
    expect(queue.held.get(failed.id)).toBe('waiting');
  });

  it('persists the triggers accepted together and enqueues one fan-out job for the new ones, which each record names', async () => {
    await accept.execute({ scope, name: 'welcome', to: 'a', transactionId: 'taken-before' });
    queue.added.length = 0;
    const answers = await Promise.all(
      ['one', 'two', 'taken-before', 'three'].map((transactionId) => accept.execute({ scope, name: 'welcome', to: 'a', transactionId })),
    );
    expect(answers.every((answer) => answer.status === 'processed')).toBe(true);
    expect(queue.added).toHaveLength(1);
    const [jobId] = queue.added;
    const batch = [...triggers.records.values()].filter((r) => r.transactionId !== 'taken-before');
    expect(batch.map((r) => r.fanOutJobId)).toEqual([jobId, jobId, jobId]);
    expect(queue.data.get(jobId)).toEqual({ triggerIds: batch.map((r) => r.id) });
  });

  it('leaves alone triggers whose shared fan-out job still waits, and re-adds each alone when that job failed for good', async () => {
    await Promise.all(['x', 'y'].map((transactionId) => accept.execute({ scope, name: 'welcome', to: 'a', transactionId })));
    const [jobId] = queue.added;
    queue.added.length = 0;
    later(RECONCILE_AFTER_MS + 1);
    expect(await reconcile.execute()).toBe(0);
    queue.held.set(jobId, 'failed');
    expect(await reconcile.execute()).toBe(2);
    const ids = [...triggers.records.values()].map((r) => r.id);
    expect(queue.added).toEqual(ids);
    expect(queue.data.get(ids[0])).toEqual({ triggerIds: [ids[0]] });
    expect(await reconcile.execute()).toBe(0); // their own jobs wait now
  });

  it('re-adds a trigger whose shared fan-out job completed without it (its batch wrote after the hold, and its own add failed)', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const gates = new Map<string, () => void>();
      const insert = triggers.insertIfAbsent.bind(triggers);
      triggers.insertIfAbsent = async (record) => {
        await new Promise<void>((resolve) => gates.set(record.transactionId, resolve));
        return insert(record);
      };
      const started = async (transactionId: string) => {
        while (!gates.has(transactionId)) await new Promise((resolve) => setImmediate(resolve));
      };
      const first = accept.execute({ scope, name: 'welcome', to: 'a', transactionId: 'first' });
      await started('first');
      const second = accept.execute({ scope, name: 'welcome', to: 'a', transactionId: 'hung' });
      await started('hung');
      gates.get('first')!();
      await first;
      expect(queue.added).toEqual([]); // the shared job waits for the batch still writing
      jest.advanceTimersByTime(FANOUT_JOB_HOLD_MS);
      await new Promise((resolve) => setImmediate(resolve));
      const [sharedJob] = queue.added;
      expect(queue.data.get(sharedJob)).toEqual({ triggerIds: [[...triggers.records.values()][0].id] });
      queue.reachable = false; // the late batch's own add fails
      gates.get('hung')!();
      await second;
      queue.reachable = true;
      const late = [...triggers.records.values()].find((r) => r.transactionId === 'hung')!;
      expect(late.fanOutJobId).toBe(sharedJob);
      queue.held.set(sharedJob, 'completed');
      await triggers.markStatus([...triggers.records.values()][0].id, ['accepted'], 'processed');
      later(RECONCILE_AFTER_MS + 1);
      expect(await reconcile.execute()).toBe(1);
      expect(queue.added.at(-1)).toBe(late.id);
      expect(queue.data.get(late.id)).toEqual({ triggerIds: [late.id] });
    } finally {
      jest.useRealTimers();
    }
  });

  it('does not touch a trigger the fan-out has taken', async () => {
    queue.reachable = false;
    await accept.execute({ scope, name: 'welcome', to: 'a', transactionId: 'taken' });
    queue.reachable = true;
    const [record] = triggers.records.values();
    await triggers.markStatus(record.id, ['accepted'], 'processed');
    later(RECONCILE_AFTER_MS + 1);
    expect(await reconcile.execute()).toBe(0);
  });
});
