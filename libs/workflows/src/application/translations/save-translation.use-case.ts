import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, newId } from '@app/kernel';
import { TranslationContent, TranslationInvalidError, TranslationResourceType, requireLocale, translationContentProblems } from '../../domain/translation';
import { TRANSLATION_REPOSITORY, TranslationRepository } from '../../ports/translation.repository.port';
import { NamedResource, TranslationResources, TranslationView, translationView } from './translation-resources';

export interface SaveTranslationCommand {
  scope: EnvironmentScope;
  resourceType: TranslationResourceType;
  /** A workflow's workflowId, internal id or slug; a layout's layoutId. */
  resourceId: string;
  locale: string;
  content: unknown;
}

/** POST /v2/translations: a resource's texts in one locale, created or replaced whole. */
@Injectable()
export class SaveTranslation {
  constructor(
    private readonly resources: TranslationResources,
    @Inject(TRANSLATION_REPOSITORY) private readonly translations: TranslationRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: SaveTranslationCommand): Promise<TranslationView> {
    const locale = requireLocale(command.locale);
    const problems = translationContentProblems(command.content);
    if (Object.keys(problems).length > 0) throw new TranslationInvalidError(problems);
    const named = await this.resources.resolve(command.scope, command.resourceType, command.resourceId);
    return this.save(command.scope, named, locale, command.content as TranslationContent);
  }

  /** Stores checked content for a found resource (also what uploads and imports write through). */
  async save(scope: EnvironmentScope, named: NamedResource, locale: string, content: TranslationContent): Promise<TranslationView> {
    const now = this.clock.now();
    const saved = await this.translations.upsert({
      id: newId(now.getTime()),
      ...scope,
      resourceType: named.resource.type,
      resourceKey: named.resource.key,
      locale,
      content,
      createdAt: now,
      updatedAt: now,
    });
    return translationView(named, saved);
  }
}
