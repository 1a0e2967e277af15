import i18next, { type i18n } from 'i18next';
import { Translation, localeLanguage, normalizeLocale } from './translation';

/** Where a key's text came from, for one subscriber locale. */
export type TranslationSource = 'locale' | 'default_locale';

interface Found {
  text: string;
  source: TranslationSource;
}

/** Looked-up texts kept per catalog (locale, key and count): the same few keys are read for every delivery. */
const MEMO_LIMIT = 10_000;

const i18nCode = (locale: string) => locale.replace(/_/g, '-');

/** A resource type is an i18next namespace: the workflow's keys first, then its layout's. */
const NAMESPACES: Translation['resourceType'][] = ['workflow', 'layout'];

/**
 * A step's translations in every locale (its workflow's, and its email layout's after them), read
 * through i18next: a key is looked up in the subscriber's locale, then its language alone (`de_AT` →
 * `de`), then the other locales of that language, then the environment's default locale; a `count`
 * picks the key's plural form (`_zero`, `_one`, `_two`, `_few`, `_many`, `_other`) by the language's
 * plural rules (Intl.PluralRules). Keys may be nested or flat with dots; a text is returned as
 * written (its Liquid renders later).
 */
export class TranslationCatalog {
  private readonly i18n: i18n;
  private readonly memo = new Map<string, Found | null>();

  constructor(
    translations: Pick<Translation, 'resourceType' | 'locale' | 'content'>[],
    readonly defaultLocale: string,
  ) {
    const codes = [...new Set(translations.map((translation) => i18nCode(translation.locale)))];
    const resources: Record<string, Record<string, Translation['content']>> = {};
    for (const { resourceType, locale, content } of translations) (resources[i18nCode(locale)] ??= {})[resourceType] = content;
    const fallbackFor = (code: string | undefined): string[] => {
      const language = code?.split('-')[0];
      // The resource's other locales of the language, the one whose region repeats the language first (de-DE for de-AT).
      const kin = codes
        .filter((other) => language !== undefined && other !== code && other.split('-')[0] === language)
        .sort((a, b) => Number(b.endsWith(`-${language!.toUpperCase()}`)) - Number(a.endsWith(`-${language!.toUpperCase()}`)) || a.localeCompare(b));
      return [...kin, i18nCode(defaultLocale)];
    };
    this.i18n = i18next.createInstance();
    void this.i18n.init({
      initAsync: false,
      resources,
      ns: NAMESPACES,
      defaultNS: NAMESPACES,
      fallbackLng: fallbackFor,
      // a key may hold any character but the dot (the nesting separator): no namespaces in keys
      nsSeparator: false,
      returnNull: false,
      returnObjects: true,
    });
  }

  /** The text of `key` for `locale` (undefined: the default locale), or undefined when no locale in its chain has one. */
  lookup(locale: string | undefined, key: string, count?: number): Found | undefined {
    const memoKey = `${locale ?? ''}\u0000${key}\u0000${count ?? ''}`;
    const memo = this.memo.get(memoKey);
    if (memo !== undefined) return memo ?? undefined;
    const found = this.find(locale, key, count);
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(memoKey, found ?? null);
    return found;
  }

  private find(locale: string | undefined, key: string, count?: number): Found | undefined {
    const requested = (locale && normalizeLocale(locale)) || this.defaultLocale;
    const lng = i18nCode(requested);
    const options = { lng, ...(count === undefined ? {} : { count }) };
    if (!this.i18n.exists(key, options)) return undefined;
    const details = this.i18n.t(key, { ...options, skipInterpolation: true, returnDetails: true });
    if (typeof details.res !== 'string') return undefined; // a group of keys, not a text
    const source: TranslationSource = locale && localeLanguage(requested) !== details.usedLng.split('-')[0] ? 'default_locale' : 'locale';
    return { text: details.res, source };
  }
}

/** What one step's rendering looked up and did not find in the subscriber's locale. */
export interface TranslationMisses {
  /** The subscriber's locale as it was given (absent: none, the default locale was asked). */
  locale?: string;
  defaultLocale?: string;
  /** Keys the subscriber's locale and language lack, rendered from the default locale (sorted, as `notFound`). */
  fromDefaultLocale: string[];
  /** Keys no locale has: rendered as their fallback, else as the key. */
  notFound: string[];
  /** The workflow does not have translations enabled: every key was left as its fallback. */
  translationsDisabled?: true;
}

/** The lookups of one delivery (or preview) in one subscriber locale, remembering what they missed. */
export class LocaleTranslations {
  private readonly fromDefault = new Set<string>();
  private readonly notFound = new Set<string>();

  constructor(
    private readonly catalog: TranslationCatalog | undefined,
    private readonly locale: string | undefined,
  ) {}

  /** No lookup finds anything: the workflow does not have translations enabled. */
  static disabled(locale: string | undefined): LocaleTranslations {
    return new LocaleTranslations(undefined, locale);
  }

  lookup(key: string, count?: number): string | undefined {
    const found = this.catalog?.lookup(this.locale, key, count);
    if (!found) this.notFound.add(key);
    else if (found.source === 'default_locale') this.fromDefault.add(key);
    return found?.text;
  }

  /** What was missed, or undefined when every key was found in the subscriber's locale. */
  misses(): TranslationMisses | undefined {
    if (this.fromDefault.size === 0 && this.notFound.size === 0) return undefined;
    return {
      ...(this.locale ? { locale: this.locale } : {}),
      ...(this.catalog ? { defaultLocale: this.catalog.defaultLocale } : { translationsDisabled: true }),
      fromDefaultLocale: [...this.fromDefault].sort(),
      notFound: [...this.notFound].sort(),
    };
  }
}
