import { LocaleTranslations, TranslationCatalog } from '@app/workflows';
import { LiquidTemplateRenderer } from './liquid.renderer';

const catalog = new TranslationCatalog(
  [
    {
      resourceType: 'workflow',
      locale: 'en_US',
      content: {
        greeting: 'Hello {{ subscriber.firstName }}',
        'email.subject': 'Welcome to {{ payload.product | upcase }}',
        cart: { items_one: 'one item', items_other: '{{ count }} items' },
        loop: '{{ t.loop }}',
        nested: 'Say: {{ t.greeting }}!',
      },
    },
    {
      resourceType: 'workflow',
      locale: 'de',
      content: { greeting: 'Hallo {{ subscriber.firstName }}', cart: { items_one: 'ein Artikel', items_other: '{{ count }} Artikel' } },
    },
  ],
  'en_US',
);

const renderer = new LiquidTemplateRenderer();
const render = (source: string, t: LocaleTranslations, payload: Record<string, unknown> = {}) =>
  renderer.render(source, { payload, subscriber: { firstName: 'Ada' }, t }, false);

describe('{{ t.<key> }} in Liquid', () => {
  it("prints a key's text in the subscriber's locale, its Liquid rendered with the template's variables", () => {
    const t = new LocaleTranslations(catalog, 'de_AT');
    expect(render('{{ t.greeting }} / {{ t.email.subject }}', t, { product: 'novu' })).toBe('Hallo Ada / Welcome to NOVU');
    expect(t.misses()).toEqual({ locale: 'de_AT', defaultLocale: 'en_US', fromDefaultLocale: ['email.subject'], notFound: [] });
  });

  it('filters a text like any value, and renders keys a text names', () => {
    const t = new LocaleTranslations(catalog, 'en_US');
    expect(render('{{ t.greeting | upcase }} {{ t.nested }}', t)).toBe('HELLO ADA Say: Hello Ada!');
  });

  it('picks the plural form with `count`, the number as `count` in the text', () => {
    const t = new LocaleTranslations(catalog, 'de');
    expect(render('{{ t.cart.items | count: 1 }}; {{ t.cart.items | count: payload.n }}', t, { n: 4 })).toBe('ein Artikel; 4 Artikel');
  });

  it('prints a missing key as its `default`, else as the key, and reports it', () => {
    const t = new LocaleTranslations(catalog, 'de');
    expect(render("{{ t.missing.key | default: 'Hi' }} {{ t.other }}", t)).toBe('Hi other');
    expect(t.misses()?.notFound).toEqual(['missing.key', 'other']);
  });

  it('stops a loop of keys, printing the key', () => {
    expect(render('{{ t.loop }}', new LocaleTranslations(catalog, 'en_US'))).toBe('loop');
  });

  it('leaves `t` to a template that is given no translations, and `count` to other values', () => {
    expect(renderer.render('[{{ t.greeting }}] {{ 3 | count: 2 }}', { payload: {}, subscriber: {} }, false)).toBe('[] 3');
  });
});
