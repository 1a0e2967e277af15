import { NotFoundError, UnprocessableError } from '@app/kernel';
import type { FieldErrors } from './step-rules';

/** What Novu translates: a workflow's step content, or an email layout's. */
export const TRANSLATION_RESOURCE_TYPES = ['workflow', 'layout'] as const;
export type TranslationResourceType = (typeof TRANSLATION_RESOURCE_TYPES)[number];

/**
 * The resource a set of translations belongs to. `key` is what they are stored under: a workflow's
 * internal id (it stays when the workflow gets another workflowId), a layout's layoutId (which never
 * changes).
 */
export interface TranslationResource {
  type: TranslationResourceType;
  key: string;
}

/** Keys to texts, nested (`{email: {subject: …}}`) or flat with dots (`{"email.subject": …}`); texts may hold Liquid. */
export interface TranslationContent {
  [key: string]: string | TranslationContent;
}

/** One locale's texts of one resource (Novu's translation file). */
export interface Translation {
  id: string;
  organizationId: string;
  environmentId: string;
  resourceType: TranslationResourceType;
  resourceKey: string;
  /** Novu's form: language, then script and region, joined by `_` (`en_US`, `zh_Hans_CN`, `de`). */
  locale: string;
  content: TranslationContent;
  createdAt: Date;
  updatedAt: Date;
}

/** An environment's locales: the default, which every lookup falls back to, and the ones its translations should cover. */
export interface TranslationSettings {
  defaultLocale: string;
  targetLocales: string[];
}

/** As Novu's organizations start: English (US), no target locales. */
export const DEFAULT_TRANSLATION_SETTINGS: TranslationSettings = { defaultLocale: 'en_US', targetLocales: [] };

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/**
 * A locale as it is stored (`de_AT`), or undefined when it is not one: a BCP 47 language tag (`_`
 * or `-` between its parts) of a language, an optional script and an optional region only, whose
 * language ICU knows, canonicalised by `Intl` (`EN-us` → `en_US`, `zh-hans-cn` → `zh_Hans_CN`).
 */
export function normalizeLocale(value: string): string | undefined {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{2,35}$/.test(value)) return undefined;
  let tag: string;
  try {
    [tag] = Intl.getCanonicalLocales(value.replace(/_/g, '-'));
  } catch {
    return undefined;
  }
  const locale = new Intl.Locale(tag);
  const plain = [locale.language, locale.script, locale.region].filter(Boolean).join('-');
  if (plain !== tag || locale.language === 'und') return undefined;
  try {
    if (!LANGUAGE_NAMES.of(locale.language)) return undefined;
  } catch {
    return undefined;
  }
  return plain.replace(/-/g, '_');
}

/** The language part of a stored locale (`de_AT` → `de`). */
export function localeLanguage(locale: string): string {
  return locale.split('_')[0];
}

/** The locale a translation file is named for (`de_AT.json` → `de_AT`); undefined when the name is not `<locale>.json`. */
export function localeOfFileName(fileName: string): string | undefined {
  const match = /^([^./\\]+)\.json$/i.exec(fileName);
  return match ? normalizeLocale(match[1]) : undefined;
}

/** Why `content` is not translation content (a JSON object whose values are texts or such objects), by path; empty when it is. */
export function translationContentProblems(content: unknown, path = 'content'): FieldErrors {
  if (content === null || typeof content !== 'object' || Array.isArray(content)) {
    return { [path]: { messages: [`${path} must be an object of keys to texts`], value: content } };
  }
  const problems: FieldErrors = {};
  for (const [key, value] of Object.entries(content)) {
    const at = `${path}.${key}`;
    if (key === '') problems[path] = { messages: [`${path} may not hold an empty key`], value: key };
    else if (typeof value === 'string') continue;
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) Object.assign(problems, translationContentProblems(value, at));
    else problems[at] = { messages: [`${at} must be a text or an object of keys to texts`], value };
  }
  return problems;
}

/** Every key of the content, nested ones joined by dots. */
function contentKeys(content: TranslationContent, prefix = ''): string[] {
  return Object.entries(content).flatMap(([key, value]) => (typeof value === 'string' ? [prefix + key] : contentKeys(value, `${prefix}${key}.`)));
}

/** A resource's translations as Novu's group shows them. */
export interface TranslationGroup {
  locales: string[];
  /** Target locales (the default excepted) with no translation, or lacking a key of the default locale's, or older than it; absent when there is none. */
  outdatedLocales?: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** The group of a resource's translations (at least one). */
export function translationGroup(translations: Translation[], settings: TranslationSettings): TranslationGroup {
  const byLocale = new Map(translations.map((translation) => [translation.locale, translation]));
  const base = byLocale.get(settings.defaultLocale);
  const baseKeys = base ? contentKeys(base.content) : [];
  const outdated = settings.targetLocales
    .filter((locale) => locale !== settings.defaultLocale)
    .filter((locale) => {
      const translation = byLocale.get(locale);
      if (!translation) return true;
      if (!base) return false;
      const keys = new Set(contentKeys(translation.content));
      return translation.updatedAt.getTime() < base.updatedAt.getTime() || baseKeys.some((key) => !keys.has(key));
    });
  const times = translations.map((translation) => translation.createdAt.getTime());
  const updates = translations.map((translation) => translation.updatedAt.getTime());
  return {
    locales: translations.map((translation) => translation.locale).sort(),
    ...(outdated.length > 0 ? { outdatedLocales: outdated } : {}),
    createdAt: new Date(Math.min(...times)),
    updatedAt: new Date(Math.max(...updates)),
  };
}

/** Two contents hold the same keys and texts (key order aside). */
export function sameTranslationContent(a: TranslationContent, b: TranslationContent): boolean {
  const canonical = (value: unknown): unknown =>
    value && typeof value === 'object'
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
        )
      : value;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

export class TranslationNotFoundError extends NotFoundError {
  constructor(resourceType: TranslationResourceType, resourceId: string, locale: string) {
    super('translation_not_found', `No ${locale} translation of ${resourceType} ${resourceId}`, { resourceType, resourceId, locale });
  }
}

export class TranslationGroupNotFoundError extends NotFoundError {
  constructor(resourceType: TranslationResourceType, resourceId: string) {
    super('translation_group_not_found', `${resourceType} ${resourceId} has no translations`, { resourceType, resourceId });
  }
}

/** A locale, content or translation file that cannot be used, in the ValidationPipe's shape. */
export class TranslationInvalidError extends UnprocessableError {
  constructor(errors: FieldErrors, message = 'Validation Error') {
    super('translation_invalid', message, { errors });
  }
}

/** `problems` when a locale is not one, by field. */
export function localeProblems(field: string, value: unknown): FieldErrors {
  return {
    [field]: {
      messages: [`${field} must be a locale: a language, optionally a script and a region (en_US, de, zh_Hans_CN; "-" may stand for "_")`],
      value,
    },
  };
}

/** The stored form of a locale a caller gives, or a 422 naming the field. */
export function requireLocale(value: string, field = 'locale'): string {
  const locale = normalizeLocale(value);
  if (!locale) throw new TranslationInvalidError(localeProblems(field, value));
  return locale;
}
