import { EnvironmentScope, newId } from '@app/kernel';
import { Translation, TranslationRepository, TranslationResource } from '@app/workflows';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';
import type { RepositoryStoreFixture } from '../support/sql-stores';

/** The TranslationRepository contract; every store adapter must pass it. */
function translationRepositoryContract(fixture: RepositoryStoreFixture) {
  let repository: TranslationRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await openRepository(fixture, (r) => r.translations)()));
  afterAll(() => close());

  const organizationId = newId();
  const scope = (): EnvironmentScope => ({ organizationId, environmentId: newId() });
  const workflow = (key = newId()): TranslationResource => ({ type: 'workflow', key });
  const at = (day: number) => new Date(Date.UTC(2025, 0, day));
  const translation = (s: EnvironmentScope, resource: TranslationResource, locale: string, extra: Partial<Translation> = {}): Translation => ({
    id: newId(),
    ...s,
    resourceType: resource.type,
    resourceKey: resource.key,
    locale,
    content: { greeting: `hello ${locale}` },
    createdAt: at(1),
    updatedAt: at(1),
    ...extra,
  });

  it('stores one translation per resource and locale: a second upsert replaces the content, keeping id and createdAt', async () => {
    const s = scope();
    const resource = workflow();
    const first = translation(s, resource, 'de_DE', { content: { 'email.subject': 'Hallo', nested: { $odd: 'x', 'a.b': 'y' } } });
    expect(await repository.upsert(first)).toEqual(first);
    const again = translation(s, resource, 'de_DE', { content: { greeting: 'Servus' }, createdAt: at(5), updatedAt: at(5) });
    expect(await repository.upsert(again)).toEqual({ ...first, content: { greeting: 'Servus' }, updatedAt: at(5) });
    expect(await repository.find(s, resource, 'de_DE')).toEqual({ ...first, content: { greeting: 'Servus' }, updatedAt: at(5) });
    expect(await repository.find(s, resource, 'fr_FR')).toBeNull();
    expect(await repository.find(scope(), resource, 'de_DE')).toBeNull();
  });

  it('keeps keys holding dots and dollars, and texts of any characters, as given', async () => {
    const s = scope();
    const resource = workflow();
    const content = { 'welcome.title': 'Hello 👋 世界', $price: '{{ payload.price | money }}', deep: { 'x.y': { z: '"quoted"\n' } } };
    await repository.upsert(translation(s, resource, 'en_US', { content }));
    expect((await repository.find(s, resource, 'en_US'))?.content).toEqual(content);
  });

  it('lists a resource by locale, and a locale by resource type and key, within one environment', async () => {
    const s = scope();
    const [a, b] = [workflow('b-workflow'), workflow('a-workflow')];
    const layout: TranslationResource = { type: 'layout', key: 'footer' };
    for (const [resource, locale] of [
      [a, 'fr_FR'],
      [a, 'de_DE'],
      [b, 'de_DE'],
      [layout, 'de_DE'],
    ] as const) {
      await repository.upsert(translation(s, resource, locale));
    }
    await repository.upsert(translation(scope(), a, 'de_DE'));
    expect((await repository.listForResource(s, a)).map((t) => t.locale)).toEqual(['de_DE', 'fr_FR']);
    expect((await repository.listForLocale(s, 'de_DE')).map((t) => `${t.resourceType}:${t.resourceKey}`)).toEqual([
      'layout:footer',
      'workflow:a-workflow',
      'workflow:b-workflow',
    ]);
    expect(await repository.listForResource(s, workflow())).toEqual([]);
    expect(await repository.listForLocale(s, 'ja')).toEqual([]);
  });

  it('deletes one locale, or every locale of a resource, saying whether there was any', async () => {
    const s = scope();
    const resource = workflow();
    const other = workflow();
    for (const locale of ['en_US', 'fr_FR', 'de']) await repository.upsert(translation(s, resource, locale));
    await repository.upsert(translation(s, other, 'en_US'));
    expect(await repository.delete(s, resource, 'fr_FR')).toBe(true);
    expect(await repository.delete(s, resource, 'fr_FR')).toBe(false);
    expect(await repository.delete(scope(), resource, 'en_US')).toBe(false);
    expect(await repository.deleteResource(s, resource)).toBe(2);
    expect(await repository.deleteResource(s, resource)).toBe(0);
    expect(await repository.listForResource(s, resource)).toEqual([]);
    expect(await repository.listForResource(s, other)).toHaveLength(1);
  });

  it('keeps locale settings per environment, replaced whole', async () => {
    const s = scope();
    expect(await repository.findSettings(s)).toBeNull();
    await repository.saveSettings(s, { defaultLocale: 'de_DE', targetLocales: ['en_US', 'fr_FR'] });
    expect(await repository.findSettings(s)).toEqual({ defaultLocale: 'de_DE', targetLocales: ['en_US', 'fr_FR'] });
    await repository.saveSettings(s, { defaultLocale: 'en_US', targetLocales: [] });
    expect(await repository.findSettings(s)).toEqual({ defaultLocale: 'en_US', targetLocales: [] });
    expect(await repository.findSettings(scope())).toBeNull();
  });
}

describe.each(REPOSITORY_STORES)('TranslationRepository on $name', (store) => translationRepositoryContract(store));

describeMongoContract('TranslationRepository', (store) => translationRepositoryContract(store));
