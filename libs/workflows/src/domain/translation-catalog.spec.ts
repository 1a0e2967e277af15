import { LocaleTranslations, TranslationCatalog } from './translation-catalog';
import { Translation } from './translation';

const t = (locale: string, content: Translation['content'], resourceType: Translation['resourceType'] = 'workflow') => ({ resourceType, locale, content });

const catalog = new TranslationCatalog(
  [
    t('en_US', {
      greeting: 'Hello',
      'email.subject': 'Welcome',
      email: { body: { title: 'Getting started {{ payload.name }}' } },
      cart: { items_one: '{{ count }} item', items_other: '{{ count }} items' },
      onlyDefault: 'from en_US',
      group: { a: 'x' },
    }),
    t('de', { greeting: 'Hallo', cart: { items_one: '{{ count }} Artikel', items_other: '{{ count }} Artikel (mehrere)' } }),
    t('de_DE', { farewell: 'Tschüss' }),
    t('ar', {
      cart: { items_zero: 'لا عناصر', items_one: 'عنصر واحد', items_two: 'عنصران', items_few: 'عناصر قليلة', items_many: 'عناصر كثيرة', items_other: 'عناصر' },
    }),
    t('en_US', { footer: 'Layout footer' }, 'layout'),
  ],
  'en_US',
);

describe('TranslationCatalog', () => {
  it('looks a key up in the locale, its language, the other locales of the language, then the default locale', () => {
    expect(catalog.lookup('de_AT', 'greeting')).toEqual({ text: 'Hallo', source: 'locale' });
    expect(catalog.lookup('de-AT', 'farewell')).toEqual({ text: 'Tschüss', source: 'locale' });
    expect(catalog.lookup('de_AT', 'onlyDefault')).toEqual({ text: 'from en_US', source: 'default_locale' });
    expect(catalog.lookup('ja', 'greeting')).toEqual({ text: 'Hello', source: 'default_locale' });
    expect(catalog.lookup('en_GB', 'greeting')).toEqual({ text: 'Hello', source: 'locale' });
  });

  it('asks the default locale, without a fallback to report, when the subscriber has no locale', () => {
    expect(catalog.lookup(undefined, 'greeting')).toEqual({ text: 'Hello', source: 'locale' });
  });

  it('reads flat keys with dots and nested keys alike, and a text as written (its Liquid renders later)', () => {
    expect(catalog.lookup('en_US', 'email.subject')?.text).toBe('Welcome');
    expect(catalog.lookup('en_US', 'email.body.title')?.text).toBe('Getting started {{ payload.name }}');
  });

  it("picks the plural form by the language's rules", () => {
    expect(catalog.lookup('en_US', 'cart.items', 1)?.text).toBe('{{ count }} item');
    expect(catalog.lookup('en_US', 'cart.items', 2)?.text).toBe('{{ count }} items');
    expect(catalog.lookup('de_AT', 'cart.items', 5)?.text).toBe('{{ count }} Artikel (mehrere)');
    expect([0, 1, 2, 3, 11, 100].map((count) => catalog.lookup('ar', 'cart.items', count)?.text)).toEqual([
      'لا عناصر',
      'عنصر واحد',
      'عنصران',
      'عناصر قليلة',
      'عناصر كثيرة',
      'عناصر',
    ]);
  });

  it('finds nothing for a missing key or a group of keys', () => {
    expect(catalog.lookup('de_AT', 'nope')).toBeUndefined();
    expect(catalog.lookup('en_US', 'group')).toBeUndefined();
  });

  it("reads a layout's keys after the workflow's", () => {
    expect(catalog.lookup('de_AT', 'footer')).toEqual({ text: 'Layout footer', source: 'default_locale' });
  });
});

describe('LocaleTranslations', () => {
  it('remembers the keys taken from the default locale and those no locale has', () => {
    const lookups = new LocaleTranslations(catalog, 'ja');
    expect(lookups.lookup('greeting')).toBe('Hello');
    expect(lookups.lookup('missing.key')).toBeUndefined();
    expect(lookups.misses()).toEqual({ locale: 'ja', defaultLocale: 'en_US', fromDefaultLocale: ['greeting'], notFound: ['missing.key'] });
  });

  it('reports nothing when every key is in the subscriber language', () => {
    const lookups = new LocaleTranslations(catalog, 'de_AT');
    lookups.lookup('greeting');
    lookups.lookup('cart.items', 3);
    expect(lookups.misses()).toBeUndefined();
  });

  it('finds nothing when translations are off, and says so', () => {
    const lookups = LocaleTranslations.disabled('de');
    expect(lookups.lookup('greeting')).toBeUndefined();
    expect(lookups.misses()).toEqual({ locale: 'de', translationsDisabled: true, fromDefaultLocale: [], notFound: ['greeting'] });
  });
});
