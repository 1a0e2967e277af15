import { Context, ContextRepository, ContextSearch } from '@app/contexts';
import { EnvironmentScope, newId } from '@app/kernel';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';

/** The ContextRepository contract; every store adapter must pass it. */
function contextRepositoryContract(open: () => Promise<{ repository: ContextRepository; close(): Promise<void> }>) {
  let repository: ContextRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  const organizationId = newId();
  const scope = (): EnvironmentScope => ({ organizationId, environmentId: newId() });
  const at = (second: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, second));
  const context = (s: EnvironmentScope, type: string, identifier: string, extra: Partial<Context> = {}): Context => ({
    id: newId(),
    ...s,
    type,
    identifier,
    data: {},
    createdAt: at(0),
    updatedAt: at(0),
    ...extra,
  });
  const search = (extra: Partial<ContextSearch> = {}): ContextSearch => ({
    limit: 10,
    includeCursor: false,
    orderDirection: 'ASC',
    orderBy: 'createdAt',
    ...extra,
  });
  const newIds = () => newId();

  it('inserts once per (type, id) and environment, and finds it again with its data', async () => {
    const a = scope();
    const acme = context(a, 'tenant', 'acme', { data: { name: 'Acme', 'a.b': { $c: [1, null] } } });
    expect(await repository.insert(acme)).toBe(true);
    expect(await repository.insert(context(a, 'tenant', 'acme'))).toBe(false);
    expect(await repository.insert(context(a, 'app', 'acme'))).toBe(true);
    expect(await repository.insert(context(scope(), 'tenant', 'acme'))).toBe(true);
    expect(await repository.find(a, 'tenant', 'acme')).toEqual(acme);
    expect(await repository.find(a, 'tenant', 'nope')).toBeNull();
    expect(await repository.find(scope(), 'tenant', 'acme')).toBeNull();
  });

  it('finds the contexts of `type:id` keys in the environment, ignoring unknown and malformed keys', async () => {
    const s = scope();
    await repository.insert(context(s, 'tenant', 'acme', { data: { plan: 'pro' } }));
    await repository.insert(context(s, 'app', 'jira'));
    await repository.insert(context(scope(), 'app', 'slack'));
    const found = await repository.findByKeys(s, ['tenant:acme', 'app:jira', 'app:slack', 'tenant:nope', 'malformed', ':x']);
    expect(found.map((c) => `${c.type}:${c.identifier}`).sort()).toEqual(['app:jira', 'tenant:acme']);
    expect(found.find((c) => c.type === 'tenant')?.data).toEqual({ plan: 'pro' });
    expect(await repository.findByKeys(s, [])).toEqual([]);
  });

  it('replaces the data of an existing context and moves updatedAt; null when there is none', async () => {
    const s = scope();
    await repository.insert(context(s, 'tenant', 'acme', { data: { a: 1, b: 2 } }));
    const updated = await repository.updateData(s, 'tenant', 'acme', { c: 3 }, at(9));
    expect(updated).toMatchObject({ data: { c: 3 }, createdAt: at(0), updatedAt: at(9) });
    expect(await repository.find(s, 'tenant', 'acme')).toEqual(updated);
    expect(await repository.updateData(s, 'tenant', 'nope', {}, at(9))).toBeNull();
    expect(await repository.updateData(scope(), 'tenant', 'acme', {}, at(9))).toBeNull();
  });

  it('deletes one context, once', async () => {
    const s = scope();
    await repository.insert(context(s, 'tenant', 'acme'));
    await repository.insert(context(s, 'app', 'acme'));
    expect(await repository.delete(scope(), 'tenant', 'acme')).toBe(false);
    expect(await repository.delete(s, 'tenant', 'acme')).toBe(true);
    expect(await repository.delete(s, 'tenant', 'acme')).toBe(false);
    expect(await repository.find(s, 'app', 'acme')).not.toBeNull();
  });

  it("a trigger's contexts: creates the missing ones, replaces data when given and different, keeps the rest as they are", async () => {
    const s = scope();
    await repository.insert(context(s, 'tenant', 'acme', { data: { plan: 'pro' } }));
    await repository.insert(context(s, 'app', 'jira', { data: { v: 1 } }));
    await repository.insert(context(s, 'team', 'core', { data: { v: 1 } }));
    const result = await repository.upsert(
      s,
      [
        { type: 'tenant', identifier: 'acme' },
        { type: 'app', identifier: 'jira', data: { v: 2 } },
        { type: 'team', identifier: 'core', data: { v: 1 } },
        { type: 'region', identifier: 'eu', data: { dc: 'fra' } },
        { type: 'project', identifier: 'p1' },
      ],
      { newId: newIds, now: at(30) },
    );
    const byKey = Object.fromEntries(result.map((c) => [`${c.type}:${c.identifier}`, c]));
    expect(Object.keys(byKey).sort()).toEqual(['app:jira', 'project:p1', 'region:eu', 'team:core', 'tenant:acme']);
    expect(byKey['tenant:acme']).toMatchObject({ data: { plan: 'pro' }, updatedAt: at(0) });
    expect(byKey['app:jira']).toMatchObject({ data: { v: 2 }, createdAt: at(0), updatedAt: at(30) });
    expect(byKey['team:core']).toMatchObject({ data: { v: 1 }, updatedAt: at(0) });
    expect(byKey['region:eu']).toMatchObject({ data: { dc: 'fra' }, createdAt: at(30), updatedAt: at(30) });
    expect(byKey['project:p1']).toMatchObject({ data: {}, createdAt: at(30) });
    for (const created of [byKey['region:eu'], byKey['project:p1']]) expect(await repository.find(s, created.type, created.identifier)).toEqual(created);
  });

  it('concurrent triggers naming a new context agree on one', async () => {
    const s = scope();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => repository.upsert(s, [{ type: 'tenant', identifier: 'race', data: { n: i % 2 } }], { newId: newIds, now: at(40) })),
    );
    expect(new Set(results.map(([c]) => c.id)).size).toBe(1);
    expect((await repository.search(s, search())).totalCount).toBe(1);
  });

  it('lists by cursor, filtered by id and by a case-insensitive part of `type:id`', async () => {
    const s = scope();
    const names = [
      ['tenant', 'acme'],
      ['tenant', 'globex'],
      ['app', 'acme'],
      ['app', 'Jira'],
      ['workspace', 'w_1'],
    ];
    for (const [index, [type, identifier]] of names.entries())
      await repository.insert(context(s, type, identifier, { createdAt: at(index), updatedAt: at(10 - index) }));
    await repository.insert(context(scope(), 'tenant', 'acme'));

    const first = await repository.search(s, search({ limit: 2 }));
    expect(first.items.map((c) => `${c.type}:${c.identifier}`)).toEqual(['tenant:acme', 'tenant:globex']);
    expect(first).toMatchObject({ previous: null, totalCount: 5, totalCountCapped: false });
    const second = await repository.search(s, search({ limit: 2, after: first.next! }));
    expect(second.items.map((c) => c.identifier)).toEqual(['acme', 'Jira']);
    expect(second.previous).toBe(second.items[0].id);
    const back = await repository.search(s, search({ limit: 2, before: second.previous! }));
    expect(back.items.map((c) => c.identifier)).toEqual(['acme', 'globex']);

    expect((await repository.search(s, search({ orderBy: 'updatedAt', limit: 1 }))).items[0].identifier).toBe('w_1');
    expect((await repository.search(s, search({ orderDirection: 'DESC', limit: 1 }))).items[0].identifier).toBe('w_1');
    expect((await repository.search(s, search({ identifier: 'acme' }))).items.map((c) => c.type)).toEqual(['tenant', 'app']);
    expect((await repository.search(s, search({ search: 'APP:' }))).items.map((c) => c.identifier)).toEqual(['acme', 'Jira']);
    expect((await repository.search(s, search({ search: 'jira' }))).totalCount).toBe(1);
    expect((await repository.search(s, search({ search: 'w_' }))).items.map((c) => c.identifier)).toEqual(['w_1']);
    expect((await repository.search(s, search({ search: '%' }))).totalCount).toBe(0);
    expect(await repository.search(s, search({ after: newId() }))).toMatchObject({ items: [], next: null, totalCount: 0 });
  });
}

describe.each(REPOSITORY_STORES)('ContextRepository on $name', (store) => {
  contextRepositoryContract(openRepository(store, (r) => r.contexts));
});

describeMongoContract('ContextRepository', (store) => contextRepositoryContract(openRepository(store, (r) => r.contexts)));
