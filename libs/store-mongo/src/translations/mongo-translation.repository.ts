import { EnvironmentScope } from '@app/kernel';
import { Translation, TranslationRepository, TranslationResource, TranslationSettings } from '@app/workflows';
import { Doc, DocumentMapper } from '../mongo-documents';
import { upsertOne } from '../mongo-writes';
import { COLLECTIONS, MongoStore } from '../mongo-store';

export const translationDocuments = new DocumentMapper<Translation>({
  fields: ['organizationId', 'environmentId', 'resourceType', 'resourceKey', 'locale', 'content', 'createdAt', 'updatedAt'],
  // keys hold dots (`email.subject`), which MongoDB field names cannot
  json: ['content'],
});

/** The filter of one resource's translations (and, with a locale, of one of them). */
export function translationFilter(scope: EnvironmentScope, resource: TranslationResource, locale?: string): Doc {
  return { environmentId: scope.environmentId, resourceType: resource.type, resourceKey: resource.key, ...(locale === undefined ? {} : { locale }) };
}

/** An upsert's update: a new document gets the translation's id, organization and creation time; either way the content and updatedAt. */
export function translationUpsert(translation: Translation): Doc {
  const { content, updatedAt } = translationDocuments.toDocument(translation);
  return { $setOnInsert: { _id: translation.id, organizationId: translation.organizationId, createdAt: translation.createdAt }, $set: { content, updatedAt } };
}

/** TranslationRepository on MongoDB: one document per (environment, resource, locale), held by a unique index; settings keyed by environment. */
export class MongoTranslationRepository implements TranslationRepository {
  constructor(private readonly store: MongoStore) {}

  private get translations() {
    return this.store.collection(COLLECTIONS.translations);
  }

  private get settings() {
    return this.store.collection(COLLECTIONS.translationSettings);
  }

  async upsert(translation: Translation): Promise<Translation> {
    const scope = { organizationId: translation.organizationId, environmentId: translation.environmentId };
    const filter = translationFilter(scope, { type: translation.resourceType, key: translation.resourceKey }, translation.locale);
    const { doc } = await upsertOne(this.translations, filter, translationUpsert(translation));
    return translationDocuments.toDomain(doc);
  }

  async find(scope: EnvironmentScope, resource: TranslationResource, locale: string): Promise<Translation | null> {
    const doc = await this.translations.findOne(translationFilter(scope, resource, locale));
    return doc ? translationDocuments.toDomain(doc) : null;
  }

  async listForResource(scope: EnvironmentScope, resource: TranslationResource): Promise<Translation[]> {
    const docs = await this.translations.find(translationFilter(scope, resource), { sort: { locale: 1 } }).toArray();
    return docs.map((doc) => translationDocuments.toDomain(doc));
  }

  async listForLocale(scope: EnvironmentScope, locale: string): Promise<Translation[]> {
    const docs = await this.translations.find({ environmentId: scope.environmentId, locale }, { sort: { resourceType: 1, resourceKey: 1 } }).toArray();
    return docs.map((doc) => translationDocuments.toDomain(doc));
  }

  async delete(scope: EnvironmentScope, resource: TranslationResource, locale: string): Promise<boolean> {
    return (await this.translations.deleteOne(translationFilter(scope, resource, locale))).deletedCount === 1;
  }

  async deleteResource(scope: EnvironmentScope, resource: TranslationResource): Promise<number> {
    return (await this.translations.deleteMany(translationFilter(scope, resource))).deletedCount;
  }

  async findSettings(scope: EnvironmentScope): Promise<TranslationSettings | null> {
    const doc = await this.settings.findOne({ _id: scope.environmentId });
    return doc ? { defaultLocale: doc.defaultLocale, targetLocales: doc.targetLocales } : null;
  }

  async saveSettings(scope: EnvironmentScope, settings: TranslationSettings): Promise<void> {
    await this.settings.updateOne(
      { _id: scope.environmentId },
      {
        $set: {
          organizationId: scope.organizationId,
          environmentId: scope.environmentId,
          defaultLocale: settings.defaultLocale,
          targetLocales: settings.targetLocales,
        },
      },
      { upsert: true },
    );
  }
}
