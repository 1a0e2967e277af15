import { EnvironmentScope, newId } from '@app/kernel';
import { Workflow, WorkflowRepository, WorkflowSearch, applyWorkflowFields, blankWorkflow } from '@app/workflows';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';

/** The WorkflowRepository contract; every store adapter must pass it. */
function workflowRepositoryContract(open: () => Promise<{ repository: WorkflowRepository; close(): Promise<void> }>) {
  let repository: WorkflowRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  const organizationId = newId();
  const scope: EnvironmentScope = { organizationId, environmentId: newId() };
  const otherScope: EnvironmentScope = { organizationId, environmentId: newId() };
  let clock = Date.parse('2024-01-01T00:00:00Z');

  const workflow = (name: string, identifier: string, at: EnvironmentScope = scope, extra: Partial<Workflow> = {}): Workflow => {
    const createdAt = new Date((clock += 1000));
    const blank = blankWorkflow({ id: newId(createdAt.getTime()), ...at, creatorId: 'key-1', createdAt }, name);
    return {
      ...applyWorkflowFields(blank, {
        identifier,
        active: true,
        tags: ['t'],
        data: { team: 'growth' },
        steps: [
          { template: { type: 'email', subject: 'Hi {{subscriber.firstName}}', content: '{{payload.orderId}}' } },
          { template: { type: 'digest' }, metadata: { type: 'regular', amount: 5, unit: 'minutes' } },
        ],
      }),
      ...extra,
    };
  };

  it('inserts and reads a workflow back whole, by id and by trigger identifier', async () => {
    const w = workflow('Order shipped', 'order-shipped');
    expect(await repository.insert(w)).toBe(true);
    const byId = await repository.findById(scope, w.id);
    expect(byId).toEqual(w);
    expect(await repository.findByTriggerIdentifier(scope, 'order-shipped')).toEqual(w);
    expect(await repository.findByIdOrIdentifier(scope, w.id)).toEqual(w);
    expect(await repository.findByIdOrIdentifier(scope, 'order-shipped')).toEqual(w);
    expect(byId!.trigger).toEqual({ identifier: 'order-shipped', variables: ['orderId'], subscriberVariables: ['firstName'] });
  });

  it('refuses a second live workflow with the same trigger identifier, per environment', async () => {
    expect(await repository.insert(workflow('Dup', 'dup'))).toBe(true);
    expect(await repository.insert(workflow('Dup again', 'dup'))).toBe(false);
    expect(await repository.insert(workflow('Dup elsewhere', 'dup', otherScope))).toBe(true);
  });

  it('lets only one of concurrent inserts with one identifier win', async () => {
    const results = await Promise.all([1, 2, 3, 4].map((n) => repository.insert(workflow(`Race ${n}`, 'race'))));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('never shows one environment the workflows of another', async () => {
    const w = workflow('Private', 'private', otherScope);
    await repository.insert(w);
    expect(await repository.findById(scope, w.id)).toBeNull();
    expect(await repository.findByTriggerIdentifier(scope, 'private')).toBeNull();
    expect(await repository.findByIdOrIdentifier(scope, w.id)).toBeNull();
    expect(await repository.softDelete(scope, w.id, 'x', new Date())).toBe(false);
    expect((await repository.search(scope, { page: 0, limit: 100 })).items.map((i) => i.id)).not.toContain(w.id);
    expect(await repository.update({ ...w, environmentId: scope.environmentId, revision: 2 }, 1)).toBe('not_found');
  });

  it('updates with compare-and-set on the revision, and keeps identifiers unique', async () => {
    const w = workflow('Editable', 'editable');
    await repository.insert(w);
    const renamed = { ...applyWorkflowFields(w, { name: 'Edited', identifier: 'edited', critical: true }), revision: 2, updatedAt: new Date() };
    expect(await repository.update(renamed, 1)).toBe('updated');
    expect(await repository.findByTriggerIdentifier(scope, 'edited')).toMatchObject({ name: 'Edited', critical: true, revision: 2 });
    expect(await repository.findByTriggerIdentifier(scope, 'editable')).toBeNull();
    // A writer that read revision 1 lost the race.
    expect(await repository.update({ ...renamed, name: 'Stale', revision: 2 }, 1)).toBe('stale');
    // The identifier of another live workflow is refused.
    expect(await repository.update({ ...renamed, trigger: { ...renamed.trigger, identifier: 'dup' }, revision: 3 }, 2)).toBe('identifier_taken');
    expect(await repository.findById(scope, w.id)).toMatchObject({ name: 'Edited', revision: 2 });
    expect(await repository.update({ ...renamed, id: newId(), revision: 2 }, 1)).toBe('not_found');
  });

  it('keeps when and by whom a workflow was last published, written by insert and update and cleared by an update without them', async () => {
    const publishedAt = new Date('2024-03-01T10:00:00.000Z');
    const w = workflow('Published', 'published', scope, { lastPublishedAt: publishedAt, lastPublishedBy: 'key-2' });
    await repository.insert(w);
    expect(await repository.findById(scope, w.id)).toEqual(w);
    const republished = { ...w, lastPublishedAt: new Date('2024-03-02T10:00:00.000Z'), revision: 2 };
    expect(await repository.update(republished, 1)).toBe('updated');
    expect(await repository.findByTriggerIdentifier(scope, 'published')).toEqual(republished);
    const { lastPublishedAt: _at, lastPublishedBy: _by, ...unpublished } = { ...republished, revision: 3 };
    expect(await repository.update(unpublished, 2)).toBe('updated');
    expect(await repository.findById(scope, w.id)).toEqual(unpublished);
  });

  it('soft-deletes: gone from lookups, still readable by id for history, identifier free again', async () => {
    const w = workflow('Doomed', 'doomed');
    await repository.insert(w);
    const at = new Date('2024-02-02T00:00:00Z');
    expect(await repository.softDelete(scope, w.id, 'key-9', at)).toBe(true);
    expect(await repository.softDelete(scope, w.id, 'key-9', at)).toBe(false);
    expect(await repository.findById(scope, w.id)).toBeNull();
    expect(await repository.findByTriggerIdentifier(scope, 'doomed')).toBeNull();
    expect(await repository.findByIdIncludingDeleted(scope, w.id)).toMatchObject({ id: w.id, deletedAt: at, deletedBy: 'key-9' });
    expect(await repository.update({ ...w, revision: 2 }, 1)).toBe('not_found');
    expect(await repository.insert(workflow('Reborn', 'doomed'))).toBe(true);
  });

  it('searches by name or identifier, case-insensitively, newest first, page by page', async () => {
    const searchScope: EnvironmentScope = { organizationId, environmentId: newId() };
    for (const [name, identifier] of [
      ['Alpha news', 'alpha'],
      ['Beta', 'beta-news'],
      ['Gamma', 'gamma'],
      ['100% off_sale', 'sale'],
    ]) {
      await repository.insert(workflow(name, identifier, searchScope));
    }
    const all = await repository.search(searchScope, { page: 0, limit: 10 });
    expect(all.totalCount).toBe(4);
    expect(all.items.map((w) => w.trigger.identifier)).toEqual(['sale', 'gamma', 'beta-news', 'alpha']);
    const news = await repository.search(searchScope, { page: 0, limit: 10, query: 'NEWS' });
    expect(news.items.map((w) => w.trigger.identifier)).toEqual(['beta-news', 'alpha']);
    expect((await repository.search(searchScope, { page: 0, limit: 10, query: '%' })).items.map((w) => w.trigger.identifier)).toEqual(['sale']);
    expect((await repository.search(searchScope, { page: 0, limit: 10, query: '_' })).items.map((w) => w.trigger.identifier)).toEqual(['sale']);
    const page1 = await repository.search(searchScope, { page: 1, limit: 3 });
    expect(page1).toEqual({ items: [expect.objectContaining({ trigger: expect.objectContaining({ identifier: 'alpha' }) })], totalCount: 4 });
  });

  it('filters by tags and status, orders by name or update time either way, and skips by offset', async () => {
    const searchScope: EnvironmentScope = { organizationId, environmentId: newId() };
    const at = (w: Workflow, minutes: number) => ({ ...w, updatedAt: new Date(Date.parse('2024-06-01T00:00:00Z') + minutes * 60_000) });
    await repository.insert(at(workflow('delta', 'delta', searchScope, { tags: ['billing'] }), 3));
    await repository.insert(at(workflow('alpha', 'alpha', searchScope, { tags: ['billing', 'growth'], active: false, draft: true }), 1));
    await repository.insert(at(workflow('charlie', 'charlie', searchScope, { tags: ['growth'] }), 2));
    await repository.insert(at(workflow('bravo', 'bravo', searchScope, { tags: [] }), 4));
    const ids = async (search: Partial<WorkflowSearch>) =>
      (await repository.search(searchScope, { page: 0, limit: 10, ...search })).items.map((w) => w.trigger.identifier);
    expect(await ids({ orderBy: 'name', orderDirection: 'asc' })).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
    expect(await ids({ orderBy: 'name' })).toEqual(['delta', 'charlie', 'bravo', 'alpha']);
    expect(await ids({ orderBy: 'updatedAt', orderDirection: 'asc' })).toEqual(['alpha', 'charlie', 'delta', 'bravo']);
    expect(await ids({ orderBy: 'createdAt', orderDirection: 'asc' })).toEqual(['delta', 'alpha', 'charlie', 'bravo']);
    expect(await ids({ tags: ['growth'], orderBy: 'name', orderDirection: 'asc' })).toEqual(['alpha', 'charlie']);
    expect(await ids({ tags: ['billing', 'growth'], active: true, orderBy: 'name', orderDirection: 'asc' })).toEqual(['charlie', 'delta']);
    expect(await ids({ active: false })).toEqual(['alpha']);
    const skipped = await repository.search(searchScope, { page: 0, limit: 2, offset: 1, orderBy: 'name', orderDirection: 'asc' });
    expect({ ids: skipped.items.map((w) => w.trigger.identifier), totalCount: skipped.totalCount }).toEqual({ ids: ['bravo', 'charlie'], totalCount: 4 });
  });

  it('keeps the fields v2 adds (origin, payload schema, severity, preferences…), and an update without them removes them', async () => {
    const v2 = workflow('Schema', 'schema-v2', scope, {
      origin: 'novu-cloud',
      payloadSchema: { type: 'object', properties: { $ref: { type: 'string', default: 'a.b' } }, required: ['$ref'] },
      validatePayload: true,
      severity: 'high',
      isTranslationEnabled: false,
      preferences: { user: { all: { enabled: true, readOnly: true }, channels: { email: { enabled: false } } }, workflow: null },
    });
    expect(await repository.insert(v2)).toBe(true);
    expect(await repository.findById(scope, v2.id)).toEqual(v2);
    const { origin: _o, payloadSchema: _p, validatePayload: _v, severity: _s, isTranslationEnabled: _t, preferences: _r, ...plain } = v2;
    expect(await repository.update({ ...plain, revision: 2 }, 1)).toBe('updated');
    expect(await repository.findById(scope, v2.id)).toEqual({ ...plain, revision: 2 });
  });

  it('lists active workflows oldest first, optionally by criticality', async () => {
    const listScope: EnvironmentScope = { organizationId, environmentId: newId() };
    await repository.insert(workflow('One', 'one', listScope));
    await repository.insert(workflow('Two', 'two', listScope, { critical: true }));
    await repository.insert(workflow('Off', 'off', listScope, { active: false, draft: true }));
    const gone = workflow('Gone', 'gone', listScope);
    await repository.insert(gone);
    await repository.softDelete(listScope, gone.id, 'k', new Date());
    expect((await repository.listActive(listScope)).map((w) => w.trigger.identifier)).toEqual(['one', 'two']);
    expect((await repository.listActive(listScope, { critical: true })).map((w) => w.trigger.identifier)).toEqual(['two']);
    expect((await repository.listActive(listScope, { critical: false })).map((w) => w.trigger.identifier)).toEqual(['one']);
  });
}

describe.each(REPOSITORY_STORES)('WorkflowRepository on $name', (store) => {
  workflowRepositoryContract(openRepository(store, (r) => r.workflows));
});

describeMongoContract('WorkflowRepository', (store) => workflowRepositoryContract(openRepository(store, (r) => r.workflows)));
