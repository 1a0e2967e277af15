import { TemplateRenderError, TemplateVariables } from '@app/delivery';
import { LiquidTemplateRenderer } from './liquid.renderer';

const variables: TemplateVariables = {
  payload: { firstName: 'Ada', count: 3, subscriber: 'payload-sub', items: ['a', 'b'], createdAt: '2024-06-01T12:34:56Z', nested: { x: 1 } },
  subscriber: { subscriberId: 'sub-1', firstName: 'Grace', email: 'grace@example.com', data: { plan: 'pro' } },
  actor: { subscriberId: 'actor-1', firstName: 'Linus' },
  tenant: { identifier: 'acme', name: 'Acme', data: { region: 'eu' } },
  step: { digest: true, events: [{ postId: 'p1' }, { postId: 'p2' }], total_count: 2 },
  steps: { 'digest-step': { eventCount: 2, events: [{ id: 'e1', payload: { postId: 'p1' } }] } },
};

async function renderError(fn: () => unknown): Promise<TemplateRenderError> {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TemplateRenderError);
    return error as TemplateRenderError;
  }
  throw new Error('expected a TemplateRenderError');
}

describe('LiquidTemplateRenderer', () => {
  const renderer = new LiquidTemplateRenderer();

  it('renders payload, subscriber, actor, tenant and digest variables', () => {
    expect(renderer.render('Hi {{ payload.firstName }}, from {{ actor.firstName }} at {{ tenant.name }}', variables)).toBe('Hi Ada, from Linus at Acme');
    expect(renderer.render('{{subscriber.firstName}} ({{ subscriber.data.plan }})', variables)).toBe('Grace (pro)');
    expect(renderer.render('{% if step.digest %}{{ step.total_count }}: {% for e in step.events %}{{ e.postId }} {% endfor %}{% endif %}', variables)).toBe(
      '2: p1 p2 ',
    );
    expect(renderer.render("{{ steps['digest-step'].eventCount }}", variables)).toBe('2');
  });

  it('spreads payload keys at the root (Novu v1), reserved names winning', () => {
    expect(renderer.render('{{ firstName }} has {{ count }}', variables)).toBe('Ada has 3');
    expect(renderer.render('{{ subscriber.subscriberId }}', variables)).toBe('sub-1');
    expect(renderer.render('{{ payload.subscriber }}', variables)).toBe('payload-sub');
  });

  it('renders missing variables as empty and empty sources as empty', () => {
    expect(renderer.render('[{{ payload.nope }}]', variables)).toBe('[]');
    expect(renderer.render('', variables)).toBe('');
    expect(renderer.render('no tags', { payload: {}, subscriber: {} })).toBe('no tags');
  });

  it('has the Handlebars helpers as filters', () => {
    expect(renderer.render('{{ payload.firstName | uppercase }} {{ payload.firstName | lowercase }}', variables)).toBe('ADA ada');
    expect(renderer.render("{{ 'hello big world' | titlecase }}", variables)).toBe('Hello Big World');
    expect(renderer.render('{{ payload.nested | json }}', variables)).toBe('{"x":1}');
    expect(renderer.render("{{ payload.count }} {{ payload.count | pluralize: 'item' }} / {{ 1 | pluralize: 'person', 'people' }}", variables)).toBe(
      '3 items / person',
    );
    expect(renderer.render("{{ payload.createdAt | dateFormat: 'yyyy-MM-dd HH:mm' }}", variables)).toBe('2024-06-01 12:34');
    expect(renderer.render("{{ payload.createdAt | dateFormat: 'HH:mm', 'Europe/Paris' }}", variables)).toBe('14:34');
    expect(renderer.render('{{ payload.items | toSentence }}', variables)).toBe('a and b');
  });

  it('fails an unknown filter (strict filters) with a typed, clear error', async () => {
    const error = await renderError(() => renderer.render('{{ payload.firstName | shout }}', variables));
    expect(error.code).toBe('template_render_failed');
    expect(error.reason).toBe('parse');
    expect(error.message).toContain('undefined filter: shout');
  });

  it('fails a syntax error with a typed error', async () => {
    const error = await renderError(() => renderer.render('{% if %}', variables));
    expect(error.reason).toBe('parse');
    expect(error.message).toMatch(/^Template could not be parsed: /);
  });

  it('cannot read files through include or render', async () => {
    const error = await renderError(() => renderer.render("{% include '/etc/passwd' %}", variables));
    expect(error.reason).toBe('render');
    expect(error.message).not.toContain('root:');
  });

  it('refuses templates above the size limit', async () => {
    const small = new LiquidTemplateRenderer({ maxTemplateBytes: 100 });
    const error = await renderError(() => small.render('x'.repeat(101), variables));
    expect(error.reason).toBe('too_large');
    expect(small.render('x'.repeat(100), variables)).toHaveLength(100);
  });

  it('stops renders that run too long', async () => {
    const quick = new LiquidTemplateRenderer({ renderTimeLimitMs: 20, memoryLimit: 1e12 });
    const error = await renderError(() =>
      quick.render('{% for i in (1..3000) %}{% for j in (1..3000) %}{% assign k = i | plus: j %}{% endfor %}{% endfor %}', variables),
    );
    expect(error.reason).toBe('limit');
    expect(error.message).toContain('limit exceeded');
  });

  it('stops renders that allocate too much', async () => {
    const tight = new LiquidTemplateRenderer({ memoryLimit: 10_000 });
    const error = await renderError(() =>
      tight.render('{% assign s = "xxxxxxxxxx" %}{% for i in (1..20) %}{% assign s = s | append: s %}{% endfor %}{{ s.size }}', variables),
    );
    expect(error.reason).toBe('limit');
  });

  it('caches compiled templates by source, evicting the least recently used', () => {
    const cached = new LiquidTemplateRenderer({ cacheSize: 2 });
    cached.render('a {{ firstName }}', variables);
    cached.render('b {{ firstName }}', variables);
    cached.render('a {{ firstName }}', variables); // refresh a
    cached.render('c {{ firstName }}', variables); // evicts b
    expect(cached.cachedTemplates).toBe(2);
    expect(cached.render('a {{ firstName }}', { ...variables, payload: { firstName: 'Bo' } })).toBe('a Bo');
  });
});
