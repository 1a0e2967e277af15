import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { TranslationGroup, TranslationGroupNotFoundError, TranslationResourceType, translationGroup } from '../../domain/translation';
import { TRANSLATION_REPOSITORY, TranslationRepository } from '../../ports/translation.repository.port';
import { TranslationResources } from './translation-resources';

export interface TranslationGroupQuery {
  scope: EnvironmentScope;
  resourceType: TranslationResourceType;
  resourceId: string;
}

export interface TranslationGroupView extends TranslationGroup {
  resourceId: string;
  resourceType: TranslationResourceType;
  resourceName: string;
}

/** GET /v2/translations/group/{resourceType}/{resourceId}: a resource's locales, and those behind its default locale. */
@Injectable()
export class GetTranslationGroup {
  constructor(
    private readonly resources: TranslationResources,
    @Inject(TRANSLATION_REPOSITORY) private readonly translations: TranslationRepository,
  ) {}

  async execute({ scope, resourceType, resourceId }: TranslationGroupQuery): Promise<TranslationGroupView> {
    const named = await this.resources.resolve(scope, resourceType, resourceId);
    const translations = await this.translations.listForResource(scope, named.resource);
    if (translations.length === 0) throw new TranslationGroupNotFoundError(resourceType, resourceId);
    const group = translationGroup(translations, await this.resources.settings(scope));
    return { resourceId: named.identifier, resourceType, resourceName: named.name, ...group };
  }
}
