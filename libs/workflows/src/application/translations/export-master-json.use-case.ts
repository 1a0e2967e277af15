import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { TranslationContent, requireLocale } from '../../domain/translation';
import { TRANSLATION_REPOSITORY, TranslationRepository } from '../../ports/translation.repository.port';
import { TranslationResources } from './translation-resources';

export interface ExportMasterJsonQuery {
  scope: EnvironmentScope;
  /** Default: the environment's default locale. */
  locale?: string;
}

export interface MasterJson {
  workflows: Record<string, TranslationContent>;
  layouts: Record<string, TranslationContent>;
}

/** GET /v2/translations/master-json: every resource's translation in one locale, workflows by workflowId, layouts by layoutId. */
@Injectable()
export class ExportMasterJson {
  constructor(
    private readonly resources: TranslationResources,
    @Inject(TRANSLATION_REPOSITORY) private readonly translations: TranslationRepository,
  ) {}

  async execute({ scope, locale }: ExportMasterJsonQuery): Promise<MasterJson> {
    const wanted = locale === undefined ? (await this.resources.settings(scope)).defaultLocale : requireLocale(locale);
    const master: MasterJson = { workflows: {}, layouts: {} };
    for (const translation of await this.translations.listForLocale(scope, wanted)) {
      const named = await this.resources.describe(scope, { type: translation.resourceType, key: translation.resourceKey });
      if (named) master[translation.resourceType === 'workflow' ? 'workflows' : 'layouts'][named.identifier] = translation.content;
    }
    return master;
  }
}
