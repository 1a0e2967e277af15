import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import {
  DEFAULT_TRANSLATION_SETTINGS,
  LocaleTranslations,
  StepTemplate,
  TRANSLATION_REPOSITORY,
  Translation,
  TranslationCatalog,
  TranslationRepository,
  Workflow,
  isV2Workflow,
} from '@app/workflows';
import { EmailLayouts } from './channels/email-layouts';

/** Catalogs kept, newest use last: each is built once per change of its translations. */
const CATALOG_LIMIT = 500;

/**
 * The translations a channel step renders `{{ t.<key> }}` with, in the subscriber's locale with its
 * fallbacks, as Novu: its workflow's when the workflow has them enabled, and for an email step its
 * layout's when the layout has them enabled (read after the workflow's). Only a workflow written
 * through v2 (Liquid) has them; where none is enabled the lookups find nothing, so each key a template
 * uses is reported.
 */
@Injectable()
export class StepTranslations {
  private readonly catalogs = new Map<string, TranslationCatalog>();

  constructor(
    @Inject(TRANSLATION_REPOSITORY) private readonly translations: TranslationRepository,
    private readonly layouts: EmailLayouts,
  ) {}

  async forStep(
    scope: EnvironmentScope,
    workflow: Pick<Workflow, 'id' | 'origin' | 'isTranslationEnabled'>,
    template: Pick<StepTemplate, 'type' | 'editorType' | 'layoutId'>,
    locale: string | undefined,
  ): Promise<LocaleTranslations | undefined> {
    if (!isV2Workflow(workflow)) return undefined;
    const layout = template.type === 'email' ? await this.layouts.layoutFor(scope, template) : null;
    const layoutId = layout?.isTranslationEnabled ? layout.layoutId : undefined;
    if (!workflow.isTranslationEnabled && !layoutId) return LocaleTranslations.disabled(locale);
    const [own, framing, settings] = await Promise.all([
      workflow.isTranslationEnabled ? this.translations.listForResource(scope, { type: 'workflow', key: workflow.id }) : [],
      layoutId ? this.translations.listForResource(scope, { type: 'layout', key: layoutId }) : [],
      this.translations.findSettings(scope),
    ]);
    return new LocaleTranslations(this.catalog([...own, ...framing], (settings ?? DEFAULT_TRANSLATION_SETTINGS).defaultLocale), locale);
  }

  private catalog(translations: Translation[], defaultLocale: string): TranslationCatalog {
    const version = `${defaultLocale}|${translations.map((t) => `${t.id}@${t.updatedAt.getTime()}`).join(',')}`;
    let catalog = this.catalogs.get(version);
    if (catalog) this.catalogs.delete(version);
    else catalog = new TranslationCatalog(translations, defaultLocale);
    this.catalogs.set(version, catalog);
    if (this.catalogs.size > CATALOG_LIMIT) this.catalogs.delete(this.catalogs.keys().next().value as string);
    return catalog;
  }
}
