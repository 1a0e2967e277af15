import { JobQueue, NewJob, StoreRejectedError, systemClock } from '@app/kernel';
import { TenantRepository } from '@app/tenants';
import { Workflow, WorkflowRepository } from '@app/workflows';
import { TriggerRecord } from '../../domain/trigger';
import { TriggerRepository } from '../../ports/trigger.repository.port';
import { FANOUT_QUEUE } from '../queues';
import { TriggerEvent, WorkflowNotFoundError } from './trigger-event.use-case';

const workflow = { id: 'wf-1', active: true, trigger: { identifier: 'welcome' }, steps: [{ active: true }] } as unknown as Workflow;

describe('TriggerEvent', () => {
  it('triggers accepted together: one the store refuses fails alone, the others reach the queue at once in one job', async () => {
    const stored: TriggerRecord[] = [];
    const added: { queue: string; job: NewJob }[] = [];
    const useCase = new TriggerEvent(
      { findByTriggerIdentifier: async () => workflow } as unknown as WorkflowRepository,
      {} as TenantRepository,
      {
        insertIfAbsent: async (record: TriggerRecord) => {
          if (record.transactionId === 'poison') throw new StoreRejectedError('INSERT INTO triggers: refused', '54000');
          stored.push(record);
          return true;
        },
      } as unknown as TriggerRepository,
      { add: async (queue: string, job: NewJob) => void added.push({ queue, job }) } as unknown as JobQueue,
      systemClock,
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
      { insertIfAbsent: async (record: TriggerRecord) => (stored.push(record), true) } as unknown as TriggerRepository,
      { add: async (queue: string, job: NewJob) => void added.push({ queue, job }) } as unknown as JobQueue,
      systemClock,
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
    expect(stored[4]).toMatchObject({ to: [], broadcast: true });
    expect(stored[0]).not.toHaveProperty('broadcast');
  });

  it('tells the caller once the trigger only waits for the insert, before the insert has committed, and answers after it', async () => {
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    const useCase = new TriggerEvent(
      { findByTriggerIdentifier: async () => workflow } as unknown as WorkflowRepository,
      {} as TenantRepository,
      { insertIfAbsent: async () => committed.then(() => true) } as unknown as TriggerRepository,
      { add: async () => undefined } as unknown as JobQueue,
      systemClock,
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
});
