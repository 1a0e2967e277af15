import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, newId } from '@app/kernel';
import { TranslationResource, sameTranslationContent } from '../../domain/translation';
import { TRANSLATION_REPOSITORY, TranslationRepository } from '../../ports/translation.repository.port';

/**
 * Publishing carries a resource's translations with it, as Novu publishes a workflow's translation
 * group: the target's copy ends with the source's locales and texts (a locale whose text differs is
 * replaced, one the source lacks removed), and loses them when the copy is deleted.
 */
@Injectable()
export class TranslationPublication {
  constructor(
    @Inject(TRANSLATION_REPOSITORY) private readonly translations: TranslationRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async copy(from: { scope: EnvironmentScope; resource: TranslationResource }, to: { scope: EnvironmentScope; resource: TranslationResource }): Promise<void> {
    const source = await this.translations.listForResource(from.scope, from.resource);
    const target = new Map((await this.translations.listForResource(to.scope, to.resource)).map((translation) => [translation.locale, translation]));
    const now = this.clock.now();
    for (const translation of source) {
      const current = target.get(translation.locale);
      target.delete(translation.locale);
      if (current && sameTranslationContent(current.content, translation.content)) continue;
      await this.translations.upsert({
        ...translation,
        ...to.scope,
        id: newId(now.getTime()),
        resourceKey: to.resource.key,
        createdAt: now,
        updatedAt: now,
      });
    }
    for (const locale of target.keys()) await this.translations.delete(to.scope, to.resource, locale);
  }

  remove(scope: EnvironmentScope, resource: TranslationResource): Promise<number> {
    return this.translations.deleteResource(scope, resource);
  }
}
