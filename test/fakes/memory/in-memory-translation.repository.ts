import { EnvironmentScope } from '@app/kernel';
import { Translation, TranslationRepository, TranslationResource, TranslationSettings } from '@app/workflows';
import { EnvironmentRecords, compareValues, copy, deleteEnvironmentRecords, stored } from './memory-records';

const keyOf = (environmentId: string, resource: TranslationResource, locale: string) =>
  `${environmentId}\u0000${resource.type}\u0000${resource.key}\u0000${locale}`;

/** TranslationRepository in memory: one translation per (environment, resource, locale), settings per environment. */
export class InMemoryTranslationRepository implements TranslationRepository, EnvironmentRecords {
  private readonly rows = new Map<string, Translation>();
  private readonly settings = new Map<string, TranslationSettings & { environmentId: string }>();

  async upsert(translation: Translation): Promise<Translation> {
    const given = stored(translation);
    const key = keyOf(given.environmentId, { type: given.resourceType, key: given.resourceKey }, given.locale);
    const current = this.rows.get(key);
    const row = current ? { ...current, content: given.content, updatedAt: given.updatedAt } : given;
    this.rows.set(key, row);
    return copy(row);
  }

  async find(scope: EnvironmentScope, resource: TranslationResource, locale: string): Promise<Translation | null> {
    const row = this.rows.get(keyOf(scope.environmentId, resource, locale));
    return row ? copy(row) : null;
  }

  async listForResource(scope: EnvironmentScope, resource: TranslationResource): Promise<Translation[]> {
    return this.where((row) => row.environmentId === scope.environmentId && row.resourceType === resource.type && row.resourceKey === resource.key)
      .sort((a, b) => compareValues(a.locale, b.locale))
      .map(copy);
  }

  async listForLocale(scope: EnvironmentScope, locale: string): Promise<Translation[]> {
    return this.where((row) => row.environmentId === scope.environmentId && row.locale === locale)
      .sort((a, b) => compareValues(a.resourceType, b.resourceType) || compareValues(a.resourceKey, b.resourceKey))
      .map(copy);
  }

  async delete(scope: EnvironmentScope, resource: TranslationResource, locale: string): Promise<boolean> {
    return this.rows.delete(keyOf(scope.environmentId, resource, locale));
  }

  async deleteResource(scope: EnvironmentScope, resource: TranslationResource): Promise<number> {
    const doomed = (await this.listForResource(scope, resource)).map((row) => keyOf(row.environmentId, resource, row.locale));
    doomed.forEach((key) => this.rows.delete(key));
    return doomed.length;
  }

  async findSettings(scope: EnvironmentScope): Promise<TranslationSettings | null> {
    const found = this.settings.get(scope.environmentId);
    return found ? { defaultLocale: found.defaultLocale, targetLocales: [...found.targetLocales] } : null;
  }

  async saveSettings(scope: EnvironmentScope, settings: TranslationSettings): Promise<void> {
    const kept = stored(settings);
    this.settings.set(scope.environmentId, { environmentId: scope.environmentId, defaultLocale: kept.defaultLocale, targetLocales: kept.targetLocales });
  }

  purgeEnvironment(environmentId: string): number {
    return deleteEnvironmentRecords(this.rows, environmentId) + deleteEnvironmentRecords(this.settings, environmentId);
  }

  private where(matches: (row: Translation) => boolean): Translation[] {
    return [...this.rows.values()].filter(matches);
  }
}
