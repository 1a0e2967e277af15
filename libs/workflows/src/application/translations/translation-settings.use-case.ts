import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { FieldErrors } from '../../domain/step-rules';
import { TranslationInvalidError, TranslationSettings, localeProblems, normalizeLocale } from '../../domain/translation';
import { TRANSLATION_REPOSITORY, TranslationRepository } from '../../ports/translation.repository.port';
import { TranslationResources } from './translation-resources';

export interface UpdateTranslationSettingsCommand {
  scope: EnvironmentScope;
  defaultLocale?: string;
  targetLocales?: string[];
}

/** GET /v1/organizations/settings: the environment's default and target locales. */
@Injectable()
export class GetTranslationSettings {
  constructor(private readonly resources: TranslationResources) {}

  execute({ scope }: { scope: EnvironmentScope }): Promise<TranslationSettings> {
    return this.resources.settings(scope);
  }
}

/** PATCH /v1/organizations/settings: the environment's default locale (what every lookup falls back to) and target locales. */
@Injectable()
export class UpdateTranslationSettings {
  constructor(
    private readonly resources: TranslationResources,
    @Inject(TRANSLATION_REPOSITORY) private readonly translations: TranslationRepository,
  ) {}

  async execute({ scope, defaultLocale, targetLocales }: UpdateTranslationSettingsCommand): Promise<TranslationSettings> {
    const problems: FieldErrors = {};
    const normalized = defaultLocale === undefined ? undefined : normalizeLocale(defaultLocale);
    if (defaultLocale !== undefined && !normalized) Object.assign(problems, localeProblems('defaultLocale', defaultLocale));
    const targets = (targetLocales ?? []).map((locale, index) => {
      const target = normalizeLocale(locale);
      if (!target) Object.assign(problems, localeProblems(`targetLocales.${index}`, locale));
      return target ?? locale;
    });
    if (Object.keys(problems).length > 0) throw new TranslationInvalidError(problems);
    const current = await this.resources.settings(scope);
    const settings: TranslationSettings = {
      defaultLocale: normalized ?? current.defaultLocale,
      targetLocales: targetLocales === undefined ? current.targetLocales : [...new Set(targets)],
    };
    await this.translations.saveSettings(scope, settings);
    return settings;
  }
}
