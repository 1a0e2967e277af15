import { Inject, Injectable } from '@nestjs/common';
import { TranslationNotFoundError, requireLocale } from '../../domain/translation';
import { TRANSLATION_REPOSITORY, TranslationRepository } from '../../ports/translation.repository.port';
import { TranslationQuery } from './get-translation.use-case';
import { TranslationResources } from './translation-resources';

/** DELETE /v2/translations/{resourceType}/{resourceId}/{locale}: one locale of a resource. */
@Injectable()
export class DeleteTranslation {
  constructor(
    private readonly resources: TranslationResources,
    @Inject(TRANSLATION_REPOSITORY) private readonly translations: TranslationRepository,
  ) {}

  async execute({ scope, resourceType, resourceId, locale }: TranslationQuery): Promise<void> {
    const wanted = requireLocale(locale);
    const named = await this.resources.resolve(scope, resourceType, resourceId);
    if (!(await this.translations.delete(scope, named.resource, wanted))) throw new TranslationNotFoundError(resourceType, resourceId, wanted);
  }
}
