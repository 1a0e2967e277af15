import { EnvironmentScope, Page } from '@app/kernel';
import { Layout, LayoutChanges, LayoutRepository, LayoutSearch, defaultLayoutOf } from '@app/workflows';
import { EnvironmentRecords, compareValues, containsIgnoringCase, copy, deleteEnvironmentRecords, shaped, stored, uniqueViolation } from './memory-records';

const toLayout = (layout: Layout): Layout =>
  shaped(
    layout,
    ['id', 'organizationId', 'environmentId', 'layoutId', 'name', 'isTranslationEnabled', 'controlValues', 'creatorId', 'createdAt', 'updatedAt'],
    ['defaultSince'],
  );

/** LayoutRepository in memory: one layout per (environment, layoutId); the default is the layout marked last. */
export class InMemoryLayoutRepository implements LayoutRepository, EnvironmentRecords {
  private readonly rows = new Map<string, Layout>();

  async insert(layout: Layout): Promise<boolean> {
    const given = toLayout(stored({ ...layout, controlValues: layout.controlValues ?? null }));
    if (this.of(given).some((l) => l.layoutId === given.layoutId)) return false;
    if (this.rows.has(given.id)) throw uniqueViolation('layouts');
    this.rows.set(given.id, given);
    return true;
  }

  async update(scope: EnvironmentScope, id: string, changes: LayoutChanges, updatedAt: Date): Promise<Layout | null> {
    const kept = stored(changes);
    const layout = this.find(scope, id);
    if (!layout) return null;
    if (kept.name !== undefined) layout.name = kept.name;
    if (kept.isTranslationEnabled !== undefined) layout.isTranslationEnabled = kept.isTranslationEnabled;
    if (kept.controlValues !== undefined) layout.controlValues = kept.controlValues;
    layout.updatedAt = new Date(updatedAt);
    return copy(layout);
  }

  async findByReference(scope: EnvironmentScope, idOrLayoutId: string): Promise<Layout | null> {
    const layout = this.find(scope, idOrLayoutId) ?? this.of(scope).find((l) => l.layoutId === idOrLayoutId);
    return layout ? copy(layout) : null;
  }

  async findDefault(scope: EnvironmentScope): Promise<Layout | null> {
    const layout = defaultLayoutOf(this.of(scope));
    return layout ? copy(layout) : null;
  }

  async findForEmail(scope: EnvironmentScope, layoutId: string | undefined): Promise<Layout | null> {
    if (layoutId === undefined) return this.findDefault(scope);
    const layout = this.of(scope).find((l) => l.layoutId === layoutId);
    return layout ? copy(layout) : null;
  }

  async search(scope: EnvironmentScope, search: LayoutSearch): Promise<Page<Layout>> {
    const field = search.orderBy ?? 'createdAt';
    const sign = search.orderDirection === 'asc' ? 1 : -1;
    const matching = this.of(scope)
      .filter((l) => !search.query || containsIgnoringCase(l.name, search.query) || containsIgnoringCase(l.layoutId, search.query))
      .sort((a, b) => sign * (compareValues(a[field], b[field]) || compareValues(a.id, b.id)));
    return { items: matching.slice(search.offset, search.offset + search.limit).map(copy), totalCount: matching.length };
  }

  async markDefault(scope: EnvironmentScope, id: string | null, at: Date): Promise<boolean> {
    if (id !== null && !this.find(scope, id)) return false;
    for (const layout of this.of(scope)) {
      if (layout.id === id) layout.defaultSince = new Date(at);
      else delete layout.defaultSince;
    }
    return true;
  }

  async delete(scope: EnvironmentScope, id: string): Promise<boolean> {
    return this.find(scope, id) ? this.rows.delete(id) : false;
  }

  private of(scope: Pick<EnvironmentScope, 'environmentId' | 'organizationId'>): Layout[] {
    return [...this.rows.values()].filter((l) => l.environmentId === scope.environmentId && l.organizationId === scope.organizationId);
  }

  private find(scope: EnvironmentScope, id: string): Layout | undefined {
    const layout = this.rows.get(id);
    return layout && layout.environmentId === scope.environmentId && layout.organizationId === scope.organizationId ? layout : undefined;
  }

  purgeEnvironment(environmentId: string): number {
    return deleteEnvironmentRecords(this.rows, environmentId);
  }
}
