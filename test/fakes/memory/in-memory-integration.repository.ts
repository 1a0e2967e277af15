import {
  ActiveIntegrationQuery,
  InsertIntegrationResult,
  Integration,
  IntegrationRepository,
  PriorityChange,
  ReplaceIntegrationResult,
} from '@app/integrations';
import { EnvironmentScope } from '@app/kernel';
import { copy, orderBy, shaped, stored } from './memory-records';

const REQUIRED = [
  'id',
  'organizationId',
  'environmentId',
  'name',
  'identifier',
  'providerId',
  'channel',
  'credentials',
  'configurations',
  'active',
  'primary',
  'priority',
  'conditions',
  'fallbacks',
  'deleted',
  'createdAt',
  'updatedAt',
] as const;

/**
 * The copy a write stores. Credentials are exempt from the store's refusals: the SQL adapter
 * writes them encrypted, so any value the cipher takes is stored.
 */
function storedIntegration(integration: Integration): Integration {
  const { credentials, ...rest } = integration;
  const kept = stored(rest) as Integration;
  kept.credentials = structuredClone(credentials);
  return shaped({ ...kept, configurations: kept.configurations ?? {}, conditions: kept.conditions ?? [], fallbacks: kept.fallbacks ?? [] }, REQUIRED, [
    'deletedAt',
    'deletedBy',
  ]);
}

const oldestFirst = orderBy<Integration>(
  (i) => i.createdAt,
  (i) => i.id,
);

/**
 * IntegrationRepository in memory. Unique among live (not deleted) integrations: the identifier per
 * environment, and one in-app `novu` per environment; a soft delete frees both. Credentials are
 * held as given (nothing here is at rest).
 */
export class InMemoryIntegrationRepository implements IntegrationRepository {
  private readonly rows = new Map<string, Integration>();

  async findActive(scope: EnvironmentScope, query: ActiveIntegrationQuery): Promise<Integration[]> {
    return this.inScope(scope)
      .filter(
        (i) =>
          i.active &&
          (query.channel === undefined || i.channel === query.channel) &&
          (query.providerId === undefined || i.providerId === query.providerId) &&
          (query.identifier === undefined || i.identifier === query.identifier),
      )
      .sort((a, b) => oldestFirst(b, a))
      .map(copy);
  }

  async insert(integration: Integration): Promise<InsertIntegrationResult> {
    const given = storedIntegration(integration);
    const live = [...this.rows.values()].filter((i) => !i.deleted && i.environmentId === given.environmentId);
    const identifierTaken = !given.deleted && live.some((i) => i.identifier === given.identifier);
    const inAppTaken = !given.deleted && isNovuInApp(given) && live.some(isNovuInApp);
    // As the SQL insert (ON CONFLICT DO NOTHING on every unique index, the id included), then which rule refused it.
    if (identifierTaken || inAppTaken || this.rows.has(given.id)) {
      return live.some((i) => i.identifier === given.identifier) ? 'identifier_taken' : 'in_app_taken';
    }
    this.rows.set(given.id, given);
    return 'inserted';
  }

  async findById(scope: EnvironmentScope, id: string): Promise<Integration | null> {
    const found = this.inScope(scope).find((i) => i.id === id);
    return found ? copy(found) : null;
  }

  async list(scope: EnvironmentScope): Promise<Integration[]> {
    return this.inScope(scope).sort(oldestFirst).map(copy);
  }

  async listActiveInOrganization(organizationId: string): Promise<Integration[]> {
    return [...this.rows.values()]
      .filter((i) => i.organizationId === organizationId && i.active && !i.deleted)
      .sort(oldestFirst)
      .map(copy);
  }

  async replace(scope: EnvironmentScope, integration: Integration, expectedUpdatedAt: Date): Promise<ReplaceIntegrationResult> {
    const next = storedIntegration(integration);
    const current = this.inScope(scope).find((i) => i.id === next.id);
    if (!current || current.updatedAt.getTime() !== expectedUpdatedAt.getTime()) return 'stale';
    const clash = [...this.rows.values()].some(
      (i) => i.id !== current.id && !i.deleted && i.environmentId === current.environmentId && i.identifier === next.identifier,
    );
    if (clash) return 'identifier_taken';
    // The fields the SQL update writes; provider, channel, deletion and creation stay.
    for (const field of [
      'name',
      'identifier',
      'credentials',
      'configurations',
      'active',
      'primary',
      'priority',
      'conditions',
      'updatedAt',
      'fallbacks',
    ] as const) {
      (current as unknown as Record<string, unknown>)[field] = next[field];
    }
    return 'updated';
  }

  async setPriorities(scope: EnvironmentScope, changes: PriorityChange[]): Promise<void> {
    for (const change of changes) {
      const current = this.inScope(scope).find((i) => i.id === change.id);
      if (!current) continue;
      current.primary = change.primary;
      current.priority = change.priority;
    }
  }

  async softDelete(scope: EnvironmentScope, id: string, deletion: { deletedAt: Date; deletedBy: string }): Promise<boolean> {
    const current = this.inScope(scope).find((i) => i.id === id);
    if (!current) return false;
    const { deletedAt, deletedBy } = stored(deletion);
    Object.assign(current, { deleted: true, deletedAt, deletedBy });
    return true;
  }

  /** Live integrations of the environment (the SQL adapter matches organization and environment both). */
  private inScope(scope: EnvironmentScope): Integration[] {
    return [...this.rows.values()].filter((i) => !i.deleted && i.organizationId === scope.organizationId && i.environmentId === scope.environmentId);
  }
}

const isNovuInApp = (i: Integration) => i.providerId === 'novu' && i.channel === 'in_app';
