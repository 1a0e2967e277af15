import { EnvironmentScope, TtlCache } from '@app/kernel';
import { Translation, TranslationResource, TranslationSettings } from '../../domain/translation';
import { TranslationRepository } from '../../ports/translation.repository.port';
import { WORKFLOW_CACHE_TTL_MS } from '../workflow-cache/cached-workflow.repository';

/**
 * The TranslationRepository with the two reads every delivery of a translated workflow makes (its
 * translations, the environment's settings) cached as workflows are: a change made in another process
 * shows within the workflow cache's time; a write through this repository empties the cache.
 */
export class CachedTranslationRepository implements TranslationRepository {
  private resources: TtlCache<Translation[]>;
  private settings: TtlCache<TranslationSettings | null>;

  constructor(
    private readonly store: TranslationRepository,
    private readonly ttlMs = WORKFLOW_CACHE_TTL_MS,
  ) {
    this.resources = new TtlCache(ttlMs);
    this.settings = new TtlCache(ttlMs);
  }

  listForResource(scope: EnvironmentScope, resource: TranslationResource): Promise<Translation[]> {
    return this.resources.getOrLoad(`${scope.environmentId}:${resource.type}:${resource.key}`, () => this.store.listForResource(scope, resource));
  }

  findSettings(scope: EnvironmentScope): Promise<TranslationSettings | null> {
    return this.settings.getOrLoad(scope.environmentId, () => this.store.findSettings(scope));
  }

  find(scope: EnvironmentScope, resource: TranslationResource, locale: string): Promise<Translation | null> {
    return this.store.find(scope, resource, locale);
  }

  listForLocale(scope: EnvironmentScope, locale: string): Promise<Translation[]> {
    return this.store.listForLocale(scope, locale);
  }

  upsert(translation: Translation): Promise<Translation> {
    return this.forgetAfter(this.store.upsert(translation));
  }

  delete(scope: EnvironmentScope, resource: TranslationResource, locale: string): Promise<boolean> {
    return this.forgetAfter(this.store.delete(scope, resource, locale));
  }

  deleteResource(scope: EnvironmentScope, resource: TranslationResource): Promise<number> {
    return this.forgetAfter(this.store.deleteResource(scope, resource));
  }

  saveSettings(scope: EnvironmentScope, settings: TranslationSettings): Promise<void> {
    return this.forgetAfter(this.store.saveSettings(scope, settings));
  }

  /** Writes are rare: a fresh cache after each. */
  private async forgetAfter<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      this.resources = new TtlCache(this.ttlMs);
      this.settings = new TtlCache(this.ttlMs);
    }
  }
}
