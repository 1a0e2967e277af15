import { EnvironmentScope } from '@app/kernel';
import { Translation, TranslationResource, TranslationSettings } from '../domain/translation';

/**
 * Translations of one environment, one per (resource, locale), and the environment's locale
 * settings. Every method is one atomic operation on the store, so the contract holds on PostgreSQL,
 * PGlite and MongoDB.
 */
export interface TranslationRepository {
  /**
   * Stores the translation's content for its resource and locale: inserted with its id and times, or
   * replacing the content of the one there (which keeps its id and `createdAt`, and takes `updatedAt`).
   */
  upsert(translation: Translation): Promise<Translation>;
  find(scope: EnvironmentScope, resource: TranslationResource, locale: string): Promise<Translation | null>;
  /** Every locale of the resource, by locale. */
  listForResource(scope: EnvironmentScope, resource: TranslationResource): Promise<Translation[]>;
  /** Every resource's translation in the locale, by resource type and key. */
  listForLocale(scope: EnvironmentScope, locale: string): Promise<Translation[]>;
  /** False when there was none. */
  delete(scope: EnvironmentScope, resource: TranslationResource, locale: string): Promise<boolean>;
  /** Every locale of the resource; how many there were. */
  deleteResource(scope: EnvironmentScope, resource: TranslationResource): Promise<number>;
  /** The environment's locale settings, null when never set. */
  findSettings(scope: EnvironmentScope): Promise<TranslationSettings | null>;
  saveSettings(scope: EnvironmentScope, settings: TranslationSettings): Promise<void>;
}
export const TRANSLATION_REPOSITORY = Symbol('TranslationRepository');
