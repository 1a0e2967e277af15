import { EnvironmentScope, PageRequest } from '@app/kernel';
import { Tenant, TenantChanges } from '../domain/tenant';

export type TenantUpdateResult = { status: 'updated'; tenant: Tenant } | { status: 'not_found' } | { status: 'identifier_taken' };

export interface TenantPage {
  items: Tenant[];
  hasMore: boolean;
}

/**
 * Tenants of one environment. Every method is one atomic operation on the store (insert-if-absent,
 * conditional update, upsert), so the same contract holds on PostgreSQL, PGlite and MongoDB.
 */
export interface TenantRepository {
  /** Inserts unless the environment already has a tenant with that identifier; false then. */
  insert(tenant: Tenant): Promise<boolean>;
  findByIdentifier(scope: EnvironmentScope, identifier: string): Promise<Tenant | null>;
  /** Oldest first; `page` is 0-based. */
  list(scope: EnvironmentScope, page: PageRequest): Promise<TenantPage>;
  /** Changes the given fields (a new identifier must be free) and bumps `updatedAt`. */
  update(scope: EnvironmentScope, identifier: string, changes: TenantChanges, updatedAt: Date): Promise<TenantUpdateResult>;
  /** Creates the tenant with `newId` or changes the given fields of the existing one, in one step. */
  upsert(
    scope: EnvironmentScope,
    identifier: string,
    changes: Omit<TenantChanges, 'identifier'>,
    at: { newId: string; now: Date },
  ): Promise<{ tenant: Tenant; created: boolean }>;
  /** False when there was no such tenant. */
  delete(scope: EnvironmentScope, identifier: string): Promise<boolean>;
}
export const TENANT_REPOSITORY = Symbol('TenantRepository');
