import { Inject, Injectable } from '@nestjs/common';
import { TranslationGroupNotFoundError } from '../../domain/translation';
import { TRANSLATION_REPOSITORY, TranslationRepository } from '../../ports/translation.repository.port';
import { TranslationGroupQuery } from './get-translation-group.use-case';
import { TranslationResources } from './translation-resources';

/** DELETE /v2/translations/{resourceType}/{resourceId}: every locale of a resource. */
@Injectable()
export class DeleteTranslationGroup {
  constructor(
    private readonly resources: TranslationResources,
    @Inject(TRANSLATION_REPOSITORY) private readonly translations: TranslationRepository,
  ) {}

  async execute({ scope, resourceType, resourceId }: TranslationGroupQuery): Promise<void> {
    const named = await this.resources.resolve(scope, resourceType, resourceId);
    if ((await this.translations.deleteResource(scope, named.resource)) === 0) throw new TranslationGroupNotFoundError(resourceType, resourceId);
  }
}
