import { EnvironmentScope, Page, TtlCache } from '@app/kernel';
import { Workflow } from '../../domain/workflow';
import { WorkflowRepository, WorkflowSearch, WorkflowUpdateResult } from '../../ports/workflow.repository.port';

/** How long a cached workflow read lasts: a change made in another process may go unseen this long. */
export const WORKFLOW_CACHE_TTL_MS = 2_000;

/**
 * The WorkflowRepository with the delivery pipeline's reads cached for a moment: every trigger
 * looks its workflow up by trigger identifier, every fan-out and step by id, and workflows
 * rarely change. Only those two reads are cached; the API's reads (by id or identifier, search,
 * active list) go to the store, so a read-change-write sees the stored revision. A write through
 * this repository empties the cache, so this process sees its own changes at once.
 */
export class CachedWorkflowRepository implements WorkflowRepository {
  private cache: TtlCache<Workflow | null>;

  constructor(
    private readonly store: WorkflowRepository,
    private readonly ttlMs = WORKFLOW_CACHE_TTL_MS,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  findByTriggerIdentifier(scope: EnvironmentScope, identifier: string): Promise<Workflow | null> {
    return this.cache.getOrLoad(key('identifier', scope, identifier), () => this.store.findByTriggerIdentifier(scope, identifier));
  }

  findByIdIncludingDeleted(scope: EnvironmentScope, id: string): Promise<Workflow | null> {
    return this.cache.getOrLoad(key('id', scope, id), () => this.store.findByIdIncludingDeleted(scope, id));
  }

  findById(scope: EnvironmentScope, id: string): Promise<Workflow | null> {
    return this.store.findById(scope, id);
  }

  findByIdOrIdentifier(scope: EnvironmentScope, idOrIdentifier: string): Promise<Workflow | null> {
    return this.store.findByIdOrIdentifier(scope, idOrIdentifier);
  }

  search(scope: EnvironmentScope, search: WorkflowSearch): Promise<Page<Workflow>> {
    return this.store.search(scope, search);
  }

  listActive(scope: EnvironmentScope, filter?: { critical?: boolean }): Promise<Workflow[]> {
    return this.store.listActive(scope, filter);
  }

  insert(workflow: Workflow): Promise<boolean> {
    return this.forgetAfter(this.store.insert(workflow));
  }

  update(workflow: Workflow, expectedRevision: number): Promise<WorkflowUpdateResult> {
    return this.forgetAfter(this.store.update(workflow, expectedRevision));
  }

  softDelete(scope: EnvironmentScope, id: string, deletedBy: string, deletedAt: Date): Promise<boolean> {
    return this.forgetAfter(this.store.softDelete(scope, id, deletedBy, deletedAt));
  }

  /** Writes are rare: a fresh cache after each (loads already under way fill the old one). */
  private async forgetAfter<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      this.cache = new TtlCache(this.ttlMs);
    }
  }
}

function key(lookup: 'identifier' | 'id', scope: EnvironmentScope, value: string): string {
  return `${lookup}:${scope.organizationId}:${scope.environmentId}:${value}`;
}
