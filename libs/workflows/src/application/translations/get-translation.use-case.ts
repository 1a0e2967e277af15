import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { TranslationNotFoundError, TranslationResourceType, requireLocale } from '../../domain/translation';
import { TRANSLATION_REPOSITORY, TranslationRepository } from '../../ports/translation.repository.port';
import { TranslationResources, TranslationView, translationView } from './translation-resources';

export interface TranslationQuery {
  scope: EnvironmentScope;
  resourceType: TranslationResourceType;
  resourceId: string;
  locale: string;
}

/** GET /v2/translations/{resourceType}/{resourceId}/{locale}. */
@Injectable()
export class GetTranslation {
  constructor(
    private readonly resources: TranslationResources,
    @Inject(TRANSLATION_REPOSITORY) private readonly translations: TranslationRepository,
  ) {}

  async execute({ scope, resourceType, resourceId, locale }: TranslationQuery): Promise<TranslationView> {
    const wanted = requireLocale(locale);
    const named = await this.resources.resolve(scope, resourceType, resourceId);
    const translation = await this.translations.find(scope, named.resource, wanted);
    if (!translation) throw new TranslationNotFoundError(resourceType, resourceId, wanted);
    return translationView(named, translation);
  }
}
