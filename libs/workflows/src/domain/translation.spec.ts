import { Translation, localeOfFileName, normalizeLocale, sameTranslationContent, translationContentProblems, translationGroup } from './translation';

describe('normalizeLocale', () => {
  it.each([
    ['en_US', 'en_US'],
    ['en-us', 'en_US'],
    ['zh_Hans_CN', 'zh_Hans_CN'],
    ['zh-hans-cn', 'zh_Hans_CN'],
    ['de', 'de'],
    ['es_419', 'es_419'],
  ])('%s is the locale %s', (given, stored) => expect(normalizeLocale(given)).toBe(stored));

  it.each(['123', 'invalid-locale', 'invalid-locale-123', 'xx', 'und', 'en_US_POSIX', 'en US', '', 'de-AT-u-co-phonebk'])('%j is no locale', (given) =>
    expect(normalizeLocale(given)).toBeUndefined(),
  );

  it('reads a file name as its locale', () => {
    expect(localeOfFileName('de_AT.json')).toBe('de_AT');
    expect(localeOfFileName('fr-fr.JSON')).toBe('fr_FR');
    expect(localeOfFileName('invalid-filename.json')).toBeUndefined();
    expect(localeOfFileName('en_US.txt')).toBeUndefined();
    expect(localeOfFileName('en_US-master.json')).toBeUndefined();
  });
});

describe('translation content', () => {
  it('is an object of texts and objects of texts', () => {
    expect(translationContentProblems({ a: 'x', b: { c: 'y', d: { e: 'z' } } })).toEqual({});
    expect(translationContentProblems(['x'])).toEqual({ content: { messages: ['content must be an object of keys to texts'], value: ['x'] } });
    expect(Object.keys(translationContentProblems({ a: 1, b: { c: null, d: ['x'] } }))).toEqual(['content.a', 'content.b.c', 'content.b.d']);
  });

  it('compares by keys and texts, whatever their order', () => {
    expect(sameTranslationContent({ a: 'x', b: { c: 'y', d: 'z' } }, { b: { d: 'z', c: 'y' }, a: 'x' })).toBe(true);
    expect(sameTranslationContent({ a: 'x' }, { a: 'y' })).toBe(false);
  });
});

describe('translationGroup', () => {
  const at = (day: number) => new Date(Date.UTC(2025, 0, day));
  const translation = (locale: string, content: Translation['content'], updatedAt: Date): Translation => ({
    id: locale,
    organizationId: 'o',
    environmentId: 'e',
    resourceType: 'workflow',
    resourceKey: 'w',
    locale,
    content,
    createdAt: at(1),
    updatedAt,
  });

  it('names the target locales missing, lacking a default key, or older than the default locale', () => {
    const group = translationGroup(
      [
        translation('en_US', { a: 'A', b: { c: 'C' } }, at(5)),
        translation('es_ES', { a: 'A', b: { c: 'C' } }, at(3)),
        translation('fr_FR', { a: 'A' }, at(9)),
        translation('it_IT', { a: 'A', 'b.c': 'C' }, at(9)),
      ],
      { defaultLocale: 'en_US', targetLocales: ['es_ES', 'fr_FR', 'it_IT', 'de_DE', 'en_US'] },
    );
    expect(group).toEqual({ locales: ['en_US', 'es_ES', 'fr_FR', 'it_IT'], outdatedLocales: ['es_ES', 'fr_FR', 'de_DE'], createdAt: at(1), updatedAt: at(9) });
  });

  it('leaves outdatedLocales out without target locales, or when none is behind', () => {
    const one = [translation('en_US', { a: 'A' }, at(2))];
    expect(translationGroup(one, { defaultLocale: 'en_US', targetLocales: [] })).not.toHaveProperty('outdatedLocales');
    expect(translationGroup([...one, translation('de', { a: 'A' }, at(3))], { defaultLocale: 'en_US', targetLocales: ['de'] })).not.toHaveProperty(
      'outdatedLocales',
    );
  });
});
