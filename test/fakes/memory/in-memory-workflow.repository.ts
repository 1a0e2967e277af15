import { EnvironmentScope, Page } from '@app/kernel';
import { OPTIONAL_WORKFLOW_FIELDS, Workflow, WorkflowRepository, WorkflowSearch, WorkflowUpdateResult } from '@app/workflows';
import { containsIgnoringCase, copy, orderBy, shaped, stored, uniqueViolation, EnvironmentRecords, deleteEnvironmentRecords } from './memory-records';

/** The fields an insert or update writes: everything but the deletion. */
const WRITTEN = [
  'id',
  'organizationId',
  'environmentId',
  'creatorId',
  'name',
  'description',
  'active',
  'draft',
  'critical',
  'preferenceSettings',
  'tags',
  'steps',
  'trigger',
  'notificationGroupId',
  'createdAt',
  'updatedAt',
  'revision',
] as const;

/** The workflow as stored: the written fields, and `data` whenever it is not undefined (it lives in a JSON document, where null stays null). */
function toWritten(workflow: Workflow): Workflow {
  const kept = stored(workflow);
  const row = shaped(
    kept,
    WRITTEN,
    OPTIONAL_WORKFLOW_FIELDS.filter((field) => field !== 'data'),
  );
  if (kept.data !== undefined) row.data = kept.data;
  return row;
}
const oldestFirst = orderBy<Workflow>(
  (w) => w.createdAt,
  (w) => w.id,
);

/**
 * WorkflowRepository in memory. Deleted workflows are kept (findByIdIncludingDeleted) and free
 * their trigger identifier, which is unique among the live workflows of an environment.
 */
export class InMemoryWorkflowRepository implements WorkflowRepository, EnvironmentRecords {
  private readonly rows = new Map<string, Workflow>();

  purgeEnvironment(environmentId: string): number {
    return deleteEnvironmentRecords(this.rows, environmentId);
  }

  async insert(workflow: Workflow): Promise<boolean> {
    const given = toWritten(workflow);
    if (this.liveWithIdentifier(given.environmentId, given.trigger.identifier)) return false;
    if (this.rows.has(given.id)) throw uniqueViolation('workflows');
    this.rows.set(given.id, given);
    return true;
  }

  async update(workflow: Workflow, expectedRevision: number): Promise<WorkflowUpdateResult> {
    const next = toWritten(workflow);
    const current = this.live(next).find((w) => w.id === next.id);
    if (!current) return 'not_found';
    if (current.revision !== expectedRevision) return 'stale';
    const holder = this.liveWithIdentifier(current.environmentId, next.trigger.identifier);
    if (holder && holder.id !== current.id) return 'identifier_taken';
    // Identity and creation stay as stored.
    const { id, organizationId, environmentId, createdAt } = current;
    this.rows.set(id, { ...next, id, organizationId, environmentId, createdAt });
    return 'updated';
  }

  async findById(scope: EnvironmentScope, id: string): Promise<Workflow | null> {
    return this.out(this.live(scope).find((w) => w.id === id));
  }

  async findByIdIncludingDeleted(scope: EnvironmentScope, id: string): Promise<Workflow | null> {
    return this.out(this.inScope(scope).find((w) => w.id === id));
  }

  async findByTriggerIdentifier(scope: EnvironmentScope, identifier: string): Promise<Workflow | null> {
    return this.out(this.live(scope).find((w) => w.trigger.identifier === identifier));
  }

  async findByIdOrIdentifier(scope: EnvironmentScope, idOrIdentifier: string): Promise<Workflow | null> {
    const live = this.live(scope);
    return this.out(live.find((w) => w.id === idOrIdentifier) ?? live.find((w) => w.trigger.identifier === idOrIdentifier));
  }

  async search(scope: EnvironmentScope, search: WorkflowSearch): Promise<Page<Workflow>> {
    const { page, limit, query, tags, active } = search;
    const field = search.orderBy ?? 'createdAt';
    const key = (w: Workflow): string => (field === 'name' ? w.name : w[field].toISOString());
    const ascending = (a: Workflow, b: Workflow) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const matching = this.live(scope)
      .filter((w) => !query || containsIgnoringCase(w.name, query) || containsIgnoringCase(w.trigger.identifier, query))
      .filter((w) => !tags?.length || w.tags.some((tag) => tags.includes(tag)))
      .filter((w) => active === undefined || w.active === active)
      .sort((a, b) => (search.orderDirection === 'asc' ? ascending(a, b) : ascending(b, a)));
    const offset = search.offset ?? page * limit;
    return { items: matching.slice(offset, offset + limit).map(copy), totalCount: matching.length };
  }

  async listActive(scope: EnvironmentScope, filter: { critical?: boolean } = {}): Promise<Workflow[]> {
    return this.live(scope)
      .filter((w) => w.active && (filter.critical === undefined || w.critical === filter.critical))
      .sort(oldestFirst)
      .map(copy);
  }

  async softDelete(scope: EnvironmentScope, id: string, deletedBy: string, deletedAt: Date): Promise<boolean> {
    const current = this.live(scope).find((w) => w.id === id);
    if (!current) return false;
    Object.assign(current, stored({ deletedAt, deletedBy }));
    current.revision += 1;
    return true;
  }

  private out(workflow: Workflow | undefined): Workflow | null {
    return workflow ? copy(workflow) : null;
  }

  private inScope(scope: EnvironmentScope): Workflow[] {
    return [...this.rows.values()].filter((w) => w.organizationId === scope.organizationId && w.environmentId === scope.environmentId);
  }

  private live(scope: EnvironmentScope): Workflow[] {
    return this.inScope(scope).filter((w) => !w.deletedAt);
  }

  /** The unique index holds per environment, whatever the organization. */
  private liveWithIdentifier(environmentId: string, identifier: string): Workflow | undefined {
    return [...this.rows.values()].find((w) => w.environmentId === environmentId && !w.deletedAt && w.trigger.identifier === identifier);
  }
}
