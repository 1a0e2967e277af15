import {
  ActiveIntegrationQuery,
  InsertIntegrationResult,
  Integration,
  IntegrationRepository,
  PriorityChange,
  RankIntegrationsResult,
  RankedIntegration,
  ReplaceIntegrationResult,
} from '@app/integrations';
import { Channel, EnvironmentScope, StoreRejectedError } from '@app/kernel';
import { copy, orderBy, shaped, stored, EnvironmentRecords, deleteEnvironmentRecords } from './memory-records';

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
    'rateLimit',
    'maxConcurrency',
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
export class InMemoryIntegrationRepository implements IntegrationRepository, EnvironmentRecords {
  private readonly rows = new Map<string, Integration>();

  purgeEnvironment(environmentId: string): number {
    return deleteEnvironmentRecords(this.rows, environmentId);
  }

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
    this.refuseTakenPriority(given);
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
    this.refuseTakenPriority({ ...current, active: next.active, priority: next.priority });
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
      'rateLimit',
      'maxConcurrency',
    ] as const) {
      if (next[field] === undefined) delete (current as unknown as Record<string, unknown>)[field];
      else (current as unknown as Record<string, unknown>)[field] = next[field];
    }
    return 'updated';
  }

  async rank(scope: EnvironmentScope, channel: Channel, expected: RankedIntegration[], changes: PriorityChange[]): Promise<RankIntegrationsResult> {
    const current = this.inScope(scope).filter((i) => i.active && i.channel === channel);
    const holds =
      current.length === expected.length &&
      expected.every((e) =>
        current.some((i) => i.id === e.id && i.primary === e.primary && i.priority === e.priority && i.updatedAt.getTime() === e.updatedAt.getTime()),
      );
    if (!holds || !changes.every((change) => current.some((i) => i.id === change.id))) return 'stale';
    // As the SQL exclusion constraint: no two active integrations of the channel on one priority above 0.
    const priorities = current.map((i) => changes.find((change) => change.id === i.id)?.priority ?? i.priority).filter((priority) => priority > 0);
    if (new Set(priorities).size !== priorities.length) return 'stale';
    for (const change of changes) {
      const integration = current.find((i) => i.id === change.id)!;
      Object.assign(integration, { primary: change.primary, priority: change.priority, updatedAt: new Date(change.updatedAt) });
    }
    return 'ranked';
  }

  async softDelete(scope: EnvironmentScope, id: string, deletion: { deletedAt: Date; deletedBy: string }): Promise<boolean> {
    const current = this.inScope(scope).find((i) => i.id === id);
    if (!current) return false;
    const { deletedAt, deletedBy } = stored(deletion);
    Object.assign(current, { deleted: true, deletedAt, deletedBy });
    return true;
  }

  /** As the SQL exclusion constraint: a write may not give an active integration a priority above 0 that another of its channel holds. */
  private refuseTakenPriority(integration: Integration): void {
    const holder = (i: Integration) =>
      i.id !== integration.id && i.active && !i.deleted && i.environmentId === integration.environmentId && i.channel === integration.channel;
    if (
      integration.active &&
      !integration.deleted &&
      integration.priority > 0 &&
      [...this.rows.values()].some((i) => holder(i) && i.priority === integration.priority)
    ) {
      throw new StoreRejectedError('memory store: integrations: conflicting key value violates exclusion constraint', '23P01');
    }
  }

  /** Live integrations of the environment (the SQL adapter matches organization and environment both). */
  private inScope(scope: EnvironmentScope): Integration[] {
    return [...this.rows.values()].filter((i) => !i.deleted && i.organizationId === scope.organizationId && i.environmentId === scope.environmentId);
  }
}

const isNovuInApp = (i: Integration) => i.providerId === 'novu' && i.channel === 'in_app';
