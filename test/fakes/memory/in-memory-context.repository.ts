import { Context, ContextEntry, ContextRepository, ContextSearch, contextKey } from '@app/contexts';
import { CursorPage, EnvironmentScope } from '@app/kernel';
import { EnvironmentRecords, containsIgnoringCase, copy, cursorPage, deleteEnvironmentRecords, sameJson, stored, uniqueViolation } from './memory-records';

const ORDER_VALUES = {
  _id: (row: Context) => row.id,
  createdAt: (row: Context) => row.createdAt,
  updatedAt: (row: Context) => row.updatedAt,
} as const;

/** ContextRepository in memory: one context per (environment, type, identifier). */
export class InMemoryContextRepository implements ContextRepository, EnvironmentRecords {
  private readonly rows = new Map<string, Context>();

  async insert(context: Context): Promise<boolean> {
    const given = stored(context);
    if (this.findRow(given.environmentId, given.type, given.identifier)) return false;
    if (this.rows.has(given.id)) throw uniqueViolation('contexts');
    this.rows.set(given.id, given);
    return true;
  }

  async find(scope: EnvironmentScope, type: string, identifier: string): Promise<Context | null> {
    const context = this.findRow(scope.environmentId, type, identifier);
    return context ? copy(context) : null;
  }

  async findByKeys(scope: EnvironmentScope, keys: string[]): Promise<Context[]> {
    const wanted = new Set(keys);
    return [...this.rows.values()].filter((c) => c.environmentId === scope.environmentId && wanted.has(contextKey(c.type, c.identifier))).map(copy);
  }

  async search(scope: EnvironmentScope, search: ContextSearch): Promise<CursorPage<Context>> {
    return cursorPage({
      environmentRows: [...this.rows.values()].filter((c) => c.environmentId === scope.environmentId),
      orderValue: ORDER_VALUES[search.orderBy],
      request: search,
      matches: (c) =>
        (search.identifier === undefined || c.identifier === search.identifier) &&
        (!search.search || containsIgnoringCase(contextKey(c.type, c.identifier), search.search)),
    });
  }

  async updateData(scope: EnvironmentScope, type: string, identifier: string, data: Record<string, unknown>, updatedAt: Date): Promise<Context | null> {
    const context = this.findRow(scope.environmentId, type, identifier);
    if (!context) return null;
    context.data = stored(data);
    context.updatedAt = new Date(updatedAt);
    return copy(context);
  }

  async delete(scope: EnvironmentScope, type: string, identifier: string): Promise<boolean> {
    const context = this.findRow(scope.environmentId, type, identifier);
    return context ? this.rows.delete(context.id) : false;
  }

  async upsert(scope: EnvironmentScope, entries: ContextEntry[], at: { newId: () => string; now: Date }): Promise<Context[]> {
    return entries.map((entry) => {
      const data = entry.data === undefined ? undefined : stored(entry.data);
      const existing = this.findRow(scope.environmentId, entry.type, entry.identifier);
      if (existing) {
        // updatedAt moves only when given data really changes.
        if (data !== undefined && !sameJson(existing.data, data)) Object.assign(existing, { data, updatedAt: new Date(at.now) });
        return copy(existing);
      }
      const context: Context = {
        id: at.newId(),
        ...scope,
        type: entry.type,
        identifier: entry.identifier,
        data: data ?? {},
        createdAt: new Date(at.now),
        updatedAt: new Date(at.now),
      };
      this.rows.set(context.id, stored(context));
      return copy(context);
    });
  }

  private findRow(environmentId: string, type: string, identifier: string): Context | undefined {
    return [...this.rows.values()].find((c) => c.environmentId === environmentId && c.type === type && c.identifier === identifier);
  }

  purgeEnvironment(environmentId: string): number {
    return deleteEnvironmentRecords(this.rows, environmentId);
  }
}
