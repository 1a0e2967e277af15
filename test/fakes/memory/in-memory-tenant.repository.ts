import { EnvironmentScope, PageRequest } from '@app/kernel';
import { Tenant, TenantChanges, TenantPage, TenantRepository, TenantUpdateResult } from '@app/tenants';
import { copy, orderBy, pageOf, sameJson, shaped, stored, uniqueViolation, EnvironmentRecords, deleteEnvironmentRecords } from './memory-records';

const toTenant = (t: Tenant): Tenant => shaped(t, ['id', 'organizationId', 'environmentId', 'identifier', 'createdAt', 'updatedAt'], ['name', 'data']);

/** Sets `name` or `data` when the change gives it: null clears. */
function set(tenant: Tenant, field: 'name' | 'data', value: unknown): void {
  if (value === undefined) return;
  if (value === null) delete tenant[field];
  else (tenant as unknown as Record<string, unknown>)[field] = value;
}

/** TenantRepository in memory: one tenant per (environment, identifier). */
export class InMemoryTenantRepository implements TenantRepository, EnvironmentRecords {
  private readonly rows = new Map<string, Tenant>();

  async insert(tenant: Tenant): Promise<boolean> {
    const given = toTenant(stored(tenant));
    if (this.find(given.environmentId, given.identifier)) return false;
    if (this.rows.has(given.id)) throw uniqueViolation('tenants');
    this.rows.set(given.id, given);
    return true;
  }

  async findByIdentifier(scope: EnvironmentScope, identifier: string): Promise<Tenant | null> {
    const tenant = this.find(scope.environmentId, identifier);
    return tenant ? copy(tenant) : null;
  }

  async list(scope: EnvironmentScope, page: PageRequest): Promise<TenantPage> {
    const rows = [...this.rows.values()]
      .filter((t) => t.environmentId === scope.environmentId)
      .sort(
        orderBy(
          (t) => t.createdAt,
          (t) => t.id,
        ),
      );
    const items = pageOf(rows, page.page, page.limit);
    return { items: items.map(copy), hasMore: rows.length > page.page * page.limit + page.limit };
  }

  async update(scope: EnvironmentScope, identifier: string, changes: TenantChanges, updatedAt: Date): Promise<TenantUpdateResult> {
    const kept = stored(changes);
    const tenant = this.find(scope.environmentId, identifier);
    if (!tenant) return { status: 'not_found' };
    if (kept.identifier !== undefined && kept.identifier !== null && kept.identifier !== tenant.identifier) {
      if (this.find(scope.environmentId, kept.identifier)) return { status: 'identifier_taken' };
      tenant.identifier = kept.identifier;
    }
    set(tenant, 'name', kept.name);
    set(tenant, 'data', kept.data);
    tenant.updatedAt = new Date(updatedAt);
    return { status: 'updated', tenant: copy(tenant) };
  }

  async upsert(
    scope: EnvironmentScope,
    identifier: string,
    changes: Omit<TenantChanges, 'identifier'>,
    at: { newId: string; now: Date },
  ): Promise<{ tenant: Tenant; created: boolean }> {
    const kept = stored(changes);
    const existing = this.find(scope.environmentId, identifier);
    if (existing) {
      // updatedAt moves only when a given field really changes.
      const changed =
        (kept.name !== undefined && (existing.name ?? null) !== kept.name) || (kept.data !== undefined && !sameJson(existing.data ?? null, kept.data));
      set(existing, 'name', kept.name);
      set(existing, 'data', kept.data);
      if (changed) existing.updatedAt = new Date(at.now);
      return { tenant: copy(existing), created: false };
    }
    if (this.rows.has(at.newId)) throw uniqueViolation('tenants');
    const tenant = toTenant({
      id: at.newId,
      organizationId: scope.organizationId,
      environmentId: scope.environmentId,
      identifier: stored(identifier),
      ...(kept.name != null ? { name: kept.name } : {}),
      ...(kept.data != null ? { data: kept.data } : {}),
      createdAt: new Date(at.now),
      updatedAt: new Date(at.now),
    });
    this.rows.set(tenant.id, tenant);
    return { tenant: copy(tenant), created: true };
  }

  async delete(scope: EnvironmentScope, identifier: string): Promise<boolean> {
    const tenant = this.find(scope.environmentId, identifier);
    return tenant ? this.rows.delete(tenant.id) : false;
  }

  private find(environmentId: string, identifier: string): Tenant | undefined {
    return [...this.rows.values()].find((t) => t.environmentId === environmentId && t.identifier === identifier);
  }

  purgeEnvironment(environmentId: string): number {
    return deleteEnvironmentRecords(this.rows, environmentId);
  }
}
