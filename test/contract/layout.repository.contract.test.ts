import { EnvironmentScope, StoreRejectedError, newId } from '@app/kernel';
import { Layout, LayoutRepository } from '@app/workflows';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';

/** The LayoutRepository contract; every store adapter must pass it. */
function layoutRepositoryContract(open: () => Promise<{ repository: LayoutRepository; close(): Promise<void> }>) {
  let repository: LayoutRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  const organizationId = newId();
  const scope = (): EnvironmentScope => ({ organizationId, environmentId: newId() });
  const at = (second: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, second));
  const frame = { email: { body: '<html><body>{{ content }}</body></html>', editorType: 'html' as const } };
  const layout = (s: EnvironmentScope, layoutId: string, extra: Partial<Layout> = {}): Layout => ({
    id: newId(),
    ...s,
    layoutId,
    name: layoutId.toUpperCase(),
    isTranslationEnabled: false,
    controlValues: frame,
    creatorId: 'key',
    createdAt: at(0),
    updatedAt: at(0),
    ...extra,
  });

  it('inserts once per layoutId and environment; finds by id or layoutId, the id winning', async () => {
    const a = scope();
    const brand = layout(a, 'brand', { defaultSince: at(1), controlValues: { email: { body: '{"type":"doc","content":[]}', editorType: 'block' } } });
    expect(await repository.insert(brand)).toBe(true);
    expect(await repository.insert(layout(a, 'brand'))).toBe(false);
    expect(await repository.insert(layout(scope(), 'brand'))).toBe(true);
    expect(await repository.findByReference(a, 'brand')).toEqual(brand);
    expect(await repository.findByReference(a, brand.id)).toEqual(brand);
    expect(await repository.findByReference(a, 'nope')).toBeNull();
    expect(await repository.findByReference(scope(), brand.id)).toBeNull();
    expect(await repository.findByReference({ organizationId: newId(), environmentId: a.environmentId }, 'brand')).toBeNull();
    // a layout whose layoutId is another's id: the id wins
    const shadow = layout(a, brand.id);
    await repository.insert(shadow);
    expect((await repository.findByReference(a, brand.id))?.id).toBe(brand.id);
  });

  it('keeps null controls and an unset default mark as they were written', async () => {
    const s = scope();
    const bare = layout(s, 'bare', { controlValues: null });
    await repository.insert(bare);
    const found = await repository.findByReference(s, 'bare');
    expect(found).toEqual(bare);
    expect(found).not.toHaveProperty('defaultSince');
  });

  it('updates only the fields given; null clears the controls; another environment’s layout is not found', async () => {
    const s = scope();
    const one = layout(s, 'one', { isTranslationEnabled: true });
    await repository.insert(one);
    const renamed = await repository.update(s, one.id, { name: 'Uno' }, at(5));
    expect(renamed).toEqual({ ...one, name: 'Uno', updatedAt: at(5) });
    const changed = await repository.update(
      s,
      one.id,
      { isTranslationEnabled: false, controlValues: { email: { body: 'x {{content}}', editorType: 'block' } } },
      at(6),
    );
    expect(changed).toMatchObject({ name: 'Uno', isTranslationEnabled: false, controlValues: { email: { body: 'x {{content}}', editorType: 'block' } } });
    expect(await repository.update(s, one.id, { controlValues: null }, at(7))).toMatchObject({ controlValues: null, updatedAt: at(7) });
    expect((await repository.findByReference(s, 'one'))?.controlValues).toBeNull();
    expect(await repository.update(scope(), one.id, { name: 'x' }, at(8))).toBeNull();
    expect(await repository.update(s, newId(), { name: 'x' }, at(8))).toBeNull();
  });

  it('has no default until one is marked; the last marked is the default; null leaves none', async () => {
    const s = scope();
    const [a, b] = [layout(s, 'a'), layout(s, 'b')];
    await repository.insert(a);
    await repository.insert(b);
    expect(await repository.findDefault(s)).toBeNull();
    expect(await repository.findForEmail(s, undefined)).toBeNull();
    expect(await repository.markDefault(s, a.id, at(10))).toBe(true);
    expect((await repository.findDefault(s))?.id).toBe(a.id);
    expect(await repository.markDefault(s, b.id, at(11))).toBe(true);
    expect((await repository.findDefault(s))?.id).toBe(b.id);
    expect((await repository.findForEmail(s, undefined))?.layoutId).toBe('b');
    // the former default's mark is gone
    expect(await repository.findByReference(s, 'a')).not.toHaveProperty('defaultSince');
    expect(await repository.findByReference(s, 'b')).toMatchObject({ defaultSince: at(11) });
    expect(await repository.markDefault(s, newId(), at(12))).toBe(false);
    expect((await repository.findDefault(s))?.id).toBe(b.id);
    expect(await repository.markDefault(scope(), a.id, at(12))).toBe(false);
    expect(await repository.markDefault(s, null, at(13))).toBe(true);
    expect(await repository.findDefault(s)).toBeNull();
  });

  it('reads the latest mark as the default when several are kept (the greater id on a tie)', async () => {
    const s = scope();
    const [older, newer] = [layout(s, 'older', { defaultSince: at(1) }), layout(s, 'newer', { defaultSince: at(2) })];
    await repository.insert(newer);
    await repository.insert(older);
    expect((await repository.findDefault(s))?.layoutId).toBe('newer');
    const t = scope();
    const ids = [newId(), newId()].sort();
    await repository.insert(layout(t, 'low', { id: ids[0], defaultSince: at(3) }));
    await repository.insert(layout(t, 'high', { id: ids[1], defaultSince: at(3) }));
    expect((await repository.findDefault(t))?.layoutId).toBe('high');
  });

  it('finds an email’s layout by layoutId only (never by id)', async () => {
    const s = scope();
    const brand = layout(s, 'brand');
    await repository.insert(brand);
    expect((await repository.findForEmail(s, 'brand'))?.id).toBe(brand.id);
    expect(await repository.findForEmail(s, brand.id)).toBeNull();
    expect(await repository.findForEmail(scope(), 'brand')).toBeNull();
  });

  it('searches one environment by name or layoutId, counts, sorts and pages', async () => {
    const s = scope();
    await repository.insert(layout(s, 'alpha', { name: 'Zeta news', createdAt: at(1), updatedAt: at(9) }));
    await repository.insert(layout(s, 'beta', { name: 'Alpha promo', createdAt: at(2), updatedAt: at(8) }));
    await repository.insert(layout(s, 'gamma', { name: 'Gamma 100%_off', createdAt: at(3), updatedAt: at(7) }));
    await repository.insert(layout(scope(), 'alpha'));
    const ids = async (search: Parameters<LayoutRepository['search']>[1]) => {
      const page = await repository.search(s, search);
      return { ids: page.items.map((l) => l.layoutId), totalCount: page.totalCount };
    };
    expect(await ids({ offset: 0, limit: 10 })).toEqual({ ids: ['gamma', 'beta', 'alpha'], totalCount: 3 });
    expect(await ids({ offset: 1, limit: 1 })).toEqual({ ids: ['beta'], totalCount: 3 });
    expect(await ids({ offset: 0, limit: 10, orderBy: 'name', orderDirection: 'asc' })).toEqual({ ids: ['beta', 'gamma', 'alpha'], totalCount: 3 });
    expect(await ids({ offset: 0, limit: 10, orderBy: 'updatedAt', orderDirection: 'asc' })).toEqual({ ids: ['gamma', 'beta', 'alpha'], totalCount: 3 });
    expect(await ids({ offset: 0, limit: 10, query: 'ALPHA' })).toEqual({ ids: ['beta', 'alpha'], totalCount: 2 });
    expect(await ids({ offset: 0, limit: 10, query: '%_' })).toEqual({ ids: ['gamma'], totalCount: 1 });
    expect(await ids({ offset: 5, limit: 10 })).toEqual({ ids: [], totalCount: 3 });
  });

  it('refuses what the store cannot hold (the NUL character) as StoreRejectedError, writing nothing', async () => {
    const s = scope();
    await expect(repository.insert(layout(s, 'nul', { name: 'a\u0000b' }))).rejects.toBeInstanceOf(StoreRejectedError);
    expect(await repository.findByReference(s, 'nul')).toBeNull();
    const kept = layout(s, 'kept');
    await repository.insert(kept);
    await expect(repository.update(s, kept.id, { controlValues: { email: { body: '\u0000', editorType: 'html' } } }, at(1))).rejects.toBeInstanceOf(
      StoreRejectedError,
    );
    expect(await repository.findByReference(s, 'kept')).toEqual(kept);
  });

  it('deletes within its environment only', async () => {
    const a = scope();
    const gone = layout(a, 'gone');
    await repository.insert(gone);
    expect(await repository.delete(scope(), gone.id)).toBe(false);
    expect(await repository.delete(a, gone.id)).toBe(true);
    expect(await repository.delete(a, gone.id)).toBe(false);
    expect(await repository.findByReference(a, 'gone')).toBeNull();
    expect(await repository.insert(layout(a, 'gone'))).toBe(true);
  });
}

describe.each(REPOSITORY_STORES)('LayoutRepository on $name', (store) => {
  layoutRepositoryContract(openRepository(store, (r) => r.layouts));
});

describeMongoContract('LayoutRepository', (store) => layoutRepositoryContract(openRepository(store, (r) => r.layouts)));
