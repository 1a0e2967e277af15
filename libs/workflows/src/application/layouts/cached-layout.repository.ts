import { EnvironmentScope, Page, TtlCache } from '@app/kernel';
import { Layout } from '../../domain/layout';
import { LayoutChanges, LayoutRepository, LayoutSearch } from '../../ports/layout.repository.port';
import { WORKFLOW_CACHE_TTL_MS } from '../workflow-cache/cached-workflow.repository';

/**
 * The LayoutRepository with the delivery pipeline's one read (`findForEmail`: each email of a v2
 * step looks its layout up) cached as long as workflows are. The API's reads go to the store; a write
 * through this repository empties the cache, so this process sees its own changes at once, another
 * process within the TTL.
 */
export class CachedLayoutRepository implements LayoutRepository {
  private cache: TtlCache<Layout | null>;

  constructor(
    private readonly store: LayoutRepository,
    private readonly ttlMs = WORKFLOW_CACHE_TTL_MS,
  ) {
    this.cache = new TtlCache(ttlMs);
  }

  findForEmail(scope: EnvironmentScope, layoutId: string | undefined): Promise<Layout | null> {
    const key = `${scope.organizationId}:${scope.environmentId}:${layoutId === undefined ? '' : `=${layoutId}`}`;
    return this.cache.getOrLoad(key, () => this.store.findForEmail(scope, layoutId));
  }

  findByReference(scope: EnvironmentScope, idOrLayoutId: string): Promise<Layout | null> {
    return this.store.findByReference(scope, idOrLayoutId);
  }

  findDefault(scope: EnvironmentScope): Promise<Layout | null> {
    return this.store.findDefault(scope);
  }

  search(scope: EnvironmentScope, search: LayoutSearch): Promise<Page<Layout>> {
    return this.store.search(scope, search);
  }

  insert(layout: Layout): Promise<boolean> {
    return this.forgetAfter(this.store.insert(layout));
  }

  update(scope: EnvironmentScope, id: string, changes: LayoutChanges, updatedAt: Date): Promise<Layout | null> {
    return this.forgetAfter(this.store.update(scope, id, changes, updatedAt));
  }

  markDefault(scope: EnvironmentScope, id: string | null, at: Date): Promise<boolean> {
    return this.forgetAfter(this.store.markDefault(scope, id, at));
  }

  delete(scope: EnvironmentScope, id: string): Promise<boolean> {
    return this.forgetAfter(this.store.delete(scope, id));
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
