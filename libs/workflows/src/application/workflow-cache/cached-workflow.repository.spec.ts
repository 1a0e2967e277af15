import { Workflow } from '../../domain/workflow';
import { WorkflowRepository } from '../../ports/workflow.repository.port';
import { CachedWorkflowRepository } from './cached-workflow.repository';

const scope = { organizationId: 'org', environmentId: 'env' };
const other = { organizationId: 'org', environmentId: 'env-2' };

/** A store stand-in that counts its reads and answers with the workflow as it stands. */
function counting() {
  let current = { id: 'wf-1', revision: 1, trigger: { identifier: 'welcome' } } as unknown as Workflow;
  const reads: string[] = [];
  const answer = (method: string) => async () => (reads.push(method), current);
  const store = {
    findByTriggerIdentifier: answer('findByTriggerIdentifier'),
    findByIdIncludingDeleted: answer('findByIdIncludingDeleted'),
    findById: answer('findById'),
    findByIdOrIdentifier: answer('findByIdOrIdentifier'),
    update: async (workflow: Workflow) => ((current = workflow), 'updated'),
    insert: async () => true,
    softDelete: async () => {
      throw new Error('store down');
    },
  } as unknown as WorkflowRepository;
  return { store, reads, change: (revision: number) => (current = { ...current, revision }) };
}

describe('CachedWorkflowRepository', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it("caches the pipeline's lookups per environment for its TTL; a change made elsewhere shows once it has passed", async () => {
    const { store, reads, change } = counting();
    const cached = new CachedWorkflowRepository(store, 2_000);
    await cached.findByTriggerIdentifier(scope, 'welcome');
    await cached.findByTriggerIdentifier(scope, 'welcome');
    await cached.findByIdIncludingDeleted(scope, 'wf-1');
    await cached.findByIdIncludingDeleted(scope, 'wf-1');
    await cached.findByIdIncludingDeleted(other, 'wf-1');
    expect(reads).toEqual(['findByTriggerIdentifier', 'findByIdIncludingDeleted', 'findByIdIncludingDeleted']);

    change(2); // another process updates it
    expect((await cached.findByIdIncludingDeleted(scope, 'wf-1'))?.revision).toBe(1);
    jest.advanceTimersByTime(2_001);
    expect((await cached.findByIdIncludingDeleted(scope, 'wf-1'))?.revision).toBe(2);
  });

  it("leaves the API's reads to the store, so a read-change-write sees the stored revision", async () => {
    const { store, reads } = counting();
    const cached = new CachedWorkflowRepository(store);
    await cached.findByIdOrIdentifier(scope, 'welcome');
    await cached.findByIdOrIdentifier(scope, 'welcome');
    await cached.findById(scope, 'wf-1');
    expect(reads).toEqual(['findByIdOrIdentifier', 'findByIdOrIdentifier', 'findById']);
  });

  it('forgets what it holds after a write through it, even one that failed', async () => {
    const { store, reads } = counting();
    const cached = new CachedWorkflowRepository(store);
    await cached.findByTriggerIdentifier(scope, 'welcome');
    await cached.update({ id: 'wf-1', revision: 2 } as unknown as Workflow, 1);
    expect((await cached.findByTriggerIdentifier(scope, 'welcome'))?.revision).toBe(2);
    await expect(cached.softDelete(scope, 'wf-1', 'key', new Date())).rejects.toThrow('store down');
    await cached.findByTriggerIdentifier(scope, 'welcome');
    expect(reads).toEqual(['findByTriggerIdentifier', 'findByTriggerIdentifier', 'findByTriggerIdentifier']);
  });
});
