import { EnvironmentScope, StoreRejectedError, newId } from '@app/kernel';
import { Tenant, TenantRepository } from '@app/tenants';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';

/** The TenantRepository contract; every store adapter must pass it. */
function tenantRepositoryContract(open: () => Promise<{ repository: TenantRepository; close(): Promise<void> }>) {
  let repository: TenantRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  const organizationId = newId();
  const scope = (): EnvironmentScope => ({ organizationId, environmentId: newId() });
  const tenant = (s: EnvironmentScope, identifier: string, extra: Partial<Tenant> = {}): Tenant => {
    const now = new Date('2025-01-01T00:00:00.000Z');
    return { id: newId(), ...s, identifier, createdAt: now, updatedAt: now, ...extra };
  };

  it('inserts once per identifier and environment, and finds by identifier', async () => {
    const a = scope();
    const b = scope();
    const acme = tenant(a, 'acme', { name: 'Acme', data: { plan: 'pro', seats: 3, nested: { on: true } } });
    expect(await repository.insert(acme)).toBe(true);
    expect(await repository.insert(tenant(a, 'acme'))).toBe(false);
    expect(await repository.insert(tenant(b, 'acme'))).toBe(true);
    expect(await repository.findByIdentifier(a, 'acme')).toEqual(acme);
    expect(await repository.findByIdentifier(a, 'nope')).toBeNull();
    expect((await repository.findByIdentifier(b, 'acme'))?.id).not.toBe(acme.id);
  });

  it('leaves unset name and data absent rather than null', async () => {
    const s = scope();
    await repository.insert(tenant(s, 'bare'));
    const found = await repository.findByIdentifier(s, 'bare');
    expect(found).not.toHaveProperty('name');
    expect(found).not.toHaveProperty('data');
  });

  it('lists one environment page by page, oldest first', async () => {
    const s = scope();
    for (let i = 0; i < 5; i++) {
      await repository.insert(tenant(s, `t${i}`, { createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)) }));
    }
    await repository.insert(tenant(scope(), 'elsewhere'));
    const first = await repository.list(s, { page: 0, limit: 2 });
    expect(first.items.map((t) => t.identifier)).toEqual(['t0', 't1']);
    expect(first.hasMore).toBe(true);
    const last = await repository.list(s, { page: 2, limit: 2 });
    expect(last.items.map((t) => t.identifier)).toEqual(['t4']);
    expect(last.hasMore).toBe(false);
    expect(await repository.list(s, { page: 0, limit: 5 })).toMatchObject({ hasMore: false });
    expect((await repository.list(s, { page: 3, limit: 2 })).items).toEqual([]);
  });

  it('updates only the fields given, renames to a free identifier, refuses a taken one', async () => {
    const s = scope();
    await repository.insert(tenant(s, 'one', { name: 'One', data: { a: 1 } }));
    await repository.insert(tenant(s, 'two'));
    const later = new Date('2025-02-01T00:00:00.000Z');

    const named = await repository.update(s, 'one', { name: 'Uno' }, later);
    expect(named).toMatchObject({ status: 'updated', tenant: { identifier: 'one', name: 'Uno', data: { a: 1 }, updatedAt: later } });

    const replaced = await repository.update(s, 'one', { data: { b: 2 } }, later);
    expect(replaced).toMatchObject({ status: 'updated', tenant: { name: 'Uno', data: { b: 2 } } });

    expect(await repository.update(s, 'one', { identifier: 'two' }, later)).toEqual({ status: 'identifier_taken' });
    expect(await repository.update(s, 'missing', { name: 'x' }, later)).toEqual({ status: 'not_found' });
    expect(await repository.update(scope(), 'one', { name: 'x' }, later)).toEqual({ status: 'not_found' });

    const renamed = await repository.update(s, 'one', { identifier: 'uno' }, later);
    expect(renamed).toMatchObject({ status: 'updated', tenant: { identifier: 'uno', name: 'Uno' } });
    expect(await repository.findByIdentifier(s, 'one')).toBeNull();
    expect(await repository.findByIdentifier(s, 'uno')).toMatchObject({ name: 'Uno', data: { b: 2 } });
  });

  it('clears name and data when they are set to null', async () => {
    const s = scope();
    await repository.insert(tenant(s, 'full', { name: 'Full', data: { a: 1 } }));
    const result = await repository.update(s, 'full', { name: null, data: null }, new Date());
    expect(result.status).toBe('updated');
    const found = await repository.findByIdentifier(s, 'full');
    expect(found).not.toHaveProperty('name');
    expect(found).not.toHaveProperty('data');
  });

  it('upserts atomically: creates when missing, changes only given fields when present', async () => {
    const s = scope();
    const t0 = new Date('2025-03-01T00:00:00.000Z');
    const t1 = new Date('2025-03-02T00:00:00.000Z');
    const t2 = new Date('2025-03-03T00:00:00.000Z');

    const firstId = newId();
    const created = await repository.upsert(s, 'up', { name: 'Up' }, { newId: firstId, now: t0 });
    expect(created).toMatchObject({ created: true, tenant: { id: firstId, identifier: 'up', name: 'Up', createdAt: t0, updatedAt: t0 } });
    expect(created.tenant).not.toHaveProperty('data');

    const withData = await repository.upsert(s, 'up', { data: { tier: 'gold' } }, { newId: newId(), now: t1 });
    expect(withData).toMatchObject({ created: false, tenant: { id: firstId, name: 'Up', data: { tier: 'gold' }, updatedAt: t1 } });

    // Same details again: nothing changes, not even updatedAt.
    const same = await repository.upsert(s, 'up', { name: 'Up', data: { tier: 'gold' } }, { newId: newId(), now: t2 });
    expect(same).toMatchObject({ created: false, tenant: { updatedAt: t1, createdAt: t0 } });

    const bare = await repository.upsert(s, 'up', {}, { newId: newId(), now: t2 });
    expect(bare.tenant).toMatchObject({ name: 'Up', data: { tier: 'gold' }, updatedAt: t1 });
  });

  it('lets concurrent upserts of one identifier agree on a single tenant', async () => {
    const s = scope();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => repository.upsert(s, 'race', { name: `n${i}` }, { newId: newId(), now: new Date() })),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.tenant.id)).size).toBe(1);
    expect((await repository.list(s, { page: 0, limit: 10 })).items).toHaveLength(1);
  });

  it('refuses what the store cannot hold (the NUL character) as StoreRejectedError, writing nothing', async () => {
    const s = scope();
    await expect(repository.insert(tenant(s, 'nul', { data: { note: 'a\u0000b' } }))).rejects.toBeInstanceOf(StoreRejectedError);
    expect(await repository.findByIdentifier(s, 'nul')).toBeNull();
    await repository.insert(tenant(s, 'kept', { name: 'Kept' }));
    await expect(repository.update(s, 'kept', { name: 'a\u0000b' }, new Date())).rejects.toBeInstanceOf(StoreRejectedError);
    await expect(repository.upsert(s, 'kept', { data: { note: '\u0000' } }, { newId: newId(), now: new Date() })).rejects.toBeInstanceOf(StoreRejectedError);
    expect(await repository.findByIdentifier(s, 'kept')).toMatchObject({ name: 'Kept' });
    expect(await repository.findByIdentifier(s, 'kept')).not.toHaveProperty('data');
  });

  it('deletes within its environment only', async () => {
    const a = scope();
    const b = scope();
    await repository.insert(tenant(a, 'gone'));
    await repository.insert(tenant(b, 'gone'));
    expect(await repository.delete(a, 'gone')).toBe(true);
    expect(await repository.delete(a, 'gone')).toBe(false);
    expect(await repository.findByIdentifier(a, 'gone')).toBeNull();
    expect(await repository.findByIdentifier(b, 'gone')).not.toBeNull();
  });
}

describe.each(REPOSITORY_STORES)('TenantRepository on $name', (store) => {
  tenantRepositoryContract(openRepository(store, (r) => r.tenants));
});

describeMongoContract('TenantRepository', (store) => tenantRepositoryContract(openRepository(store, (r) => r.tenants)));
