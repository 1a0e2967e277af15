import { TemplateRenderError, TemplateVariables } from '@app/delivery';
import { StepTemplateRenderer, usesLiquidSyntax } from './step-template.renderer';

const variables: TemplateVariables = {
  payload: {
    firstName: 'Ada',
    company: 'Tom & Jerry <Ltd>',
    note: "it's <b>bold</b>",
    count: 3,
    one: 1,
    amount: 1234567.891,
    createdAt: '2024-06-01T12:34:56Z',
    items: [
      { name: 'Widget', price: 3, kind: 'tool' },
      { name: 'Apple', price: 1, kind: 'food' },
      { name: 'Saw', price: 9, kind: 'tool' },
    ],
    empty: [],
    nested: { x: 1 },
    subscriber: 'payload-sub',
  },
  subscriber: { subscriberId: 'sub-1', firstName: 'Grace', email: 'grace@example.com', data: { plan: 'pro' } },
  actor: { subscriberId: 'actor-1', firstName: 'Linus' },
  tenant: { identifier: 'acme', name: 'Acme', data: { region: 'eu' } },
  step: { digest: true, events: [{ postId: 'p1' }, { postId: 'p2' }], total_count: 2 },
};

/** Novu v1 templates (Handlebars with Novu's helpers) and what Novu renders for them, as text. */
const CORPUS: [string, string, string][] = [
  [
    'payload, subscriber, actor, tenant',
    'Hi {{payload.firstName}} / {{subscriber.firstName}} from {{actor.firstName}} at {{tenant.name}}',
    'Hi Ada / Grace from Linus at Acme',
  ],
  ['payload keys at the root, reserved names winning', '{{firstName}} {{count}} {{subscriber.subscriberId}} {{payload.subscriber}}', 'Ada 3 sub-1 payload-sub'],
  ['a missing variable is empty', '[{{payload.nope}}][{{nope.deeper}}]', '[][]'],
  ['#each with @index, this and properties', '{{#each payload.items}}{{@index}}:{{this.name}}={{price}};{{/each}}', '0:Widget=3;1:Apple=1;2:Saw=9;'],
  [
    '#each with block params and @first/@last',
    '{{#each payload.items as |item|}}{{#if @first}}[{{/if}}{{item.name}}{{#if @last}}]{{else}},{{/if}}{{/each}}',
    '[Widget,Apple,Saw]',
  ],
  ['#each else on an empty list', '{{#each payload.empty}}x{{else}}none{{/each}}', 'none'],
  ['#if / else / #unless', '{{#if step.digest}}{{step.total_count}} events{{else}}one{{/if}}{{#unless payload.empty.length}}!{{/unless}}', '2 events!'],
  ['digest events', '{{#each step.events}}{{postId}} {{/each}}', 'p1 p2 '],
  ['eq / ne blocks', '{{#eq payload.firstName "Ada"}}yes{{else}}no{{/eq}} {{#ne payload.count 3}}a{{else}}b{{/ne}}', 'yes b'],
  [
    'gt / gte / lt / lte as blocks and subexpressions',
    '{{#gt payload.count 2}}big{{/gt}} {{#if (lt payload.count 2)}}small{{else}}not small{{/if}} {{#gte payload.count 3}}>=3{{/gte}} {{#lte payload.count 2}}x{{else}}y{{/lte}}',
    'big not small >=3 y',
  ],
  ['equals compares loosely', '{{#equals payload.count "3"}}same{{else}}different{{/equals}}', 'same'],
  ['uppercase / lowercase / titlecase', '{{uppercase payload.firstName}} {{lowercase "HeLLo"}} {{titlecase "hello big WORLD"}}', 'ADA hello Hello Big World'],
  [
    'pluralize picks the word',
    '{{payload.count}} {{pluralize payload.count "item" "items"}}, {{payload.one}} {{pluralize payload.one "item" "items"}}',
    '3 items, 1 item',
  ],
  [
    'numberFormat with defaults and options',
    '{{numberFormat payload.amount}} | {{numberFormat payload.amount decimalLength="0" thousandsSep="." decimalSep=","}} | {{numberFormat "x"}}',
    '1,234,567.89 | 1.234.568 | x',
  ],
  [
    'dateFormat with date-fns tokens, in UTC',
    "{{dateFormat payload.createdAt 'MMMM do, yyyy HH:mm'}} / {{dateFormat payload.createdAt 'EEEE'}} / {{dateFormat 'soon' 'yyyy'}}",
    'June 1st, 2024 12:34 / Saturday / soon',
  ],
  ['json', '{{json payload.nested}}', '{"x":1}'],
  ['groupBy then each', '{{#each (groupBy payload.items "kind")}}{{key}}:{{#each items}}{{name}} {{/each}}|{{/each}}', 'tool:Widget Saw |food:Apple |'],
  [
    'unique and sortBy',
    '{{#each (unique payload.items "kind")}}{{this}} {{/each}}/ {{#each (sortBy payload.items "price")}}{{name}} {{/each}}',
    'tool food / Apple Widget Saw ',
  ],
  ['text output is not HTML-escaped', '{{payload.company}} {{{payload.company}}}', 'Tom & Jerry <Ltd> Tom & Jerry <Ltd>'],
];

describe('StepTemplateRenderer: Novu v1 (Handlebars) templates', () => {
  const renderer = new StepTemplateRenderer();

  it.each(CORPUS)('%s', (_name, source, expected) => {
    expect(renderer.render(source, variables)).toBe(expected);
  });

  it('HTML output escapes values, except {{{triple}}}, and keeps apostrophes as Novu does', () => {
    expect(renderer.render('<p>{{payload.company}}</p><p>{{{payload.note}}}</p><p>{{payload.note}}</p>', variables, { html: true })).toBe(
      "<p>Tom &amp; Jerry &lt;Ltd&gt;</p><p>it's <b>bold</b></p><p>it's &lt;b&gt;bold&lt;/b&gt;</p>",
    );
  });

  it('a template with Liquid syntax renders with Liquid', () => {
    expect(renderer.render('{{ payload.firstName | upcase }} {% if step.digest %}{{ step.total_count }}{% endif %}', variables)).toBe('ADA 2');
    expect(renderer.render("{{ payload.createdAt | dateFormat: 'yyyy' }} {{ payload.items | map: 'name' | toSentence }}", variables)).toBe(
      '2024 Widget, Apple and Saw',
    );
    expect(usesLiquidSyntax('{{#each items as |item|}}{{item}}{{/each}}')).toBe(false);
    expect(usesLiquidSyntax('{{ a | b }}')).toBe(true);
    expect(usesLiquidSyntax('{{- a }}')).toBe(true);
    expect(usesLiquidSyntax('{{a}} {{{b}}}')).toBe(false);
  });

  it('fails a syntax error or an unknown helper with a typed error', () => {
    const failure = (source: string) => {
      try {
        renderer.render(source, variables);
      } catch (error) {
        expect(error).toBeInstanceOf(TemplateRenderError);
        return error as TemplateRenderError;
      }
      throw new Error('expected a TemplateRenderError');
    };
    expect(failure('{{#if payload.x}}unclosed')).toMatchObject({ reason: 'parse', code: 'template_render_failed' });
    expect(failure('{{shout payload.firstName}}').message).toContain('Missing helper: "shout"');
  });

  it('holds loops to the render budget', () => {
    const tight = new StepTemplateRenderer({ memoryLimit: 10_000 });
    const big = { ...variables, payload: { rows: Array.from({ length: 2_000 }, (_, i) => i) } };
    let error: unknown;
    try {
      tight.render('{{#each payload.rows}}{{#each ../payload.rows}}{{this}}{{/each}}{{/each}}', big);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TemplateRenderError);
    expect((error as TemplateRenderError).reason).toBe('limit');
  });

  it('refuses templates above the size limit', () => {
    const small = new StepTemplateRenderer({ maxTemplateBytes: 100 });
    expect(() => small.render('x'.repeat(101), variables)).toThrow('more than the 100 allowed');
    // the second time the same answer (a source over the limit is not remembered, only measured again)
    expect(() => small.render('x'.repeat(101), variables)).toThrow('more than the 100 allowed');
    expect(small.render('{{payload.firstName}}', variables)).toBe('Ada');
  });

  it('keeps telling Liquid from Handlebars per source once its memory of sources is full', () => {
    const forgetful = new StepTemplateRenderer({ cacheSize: 2 });
    for (let round = 0; round < 3; round++) {
      expect(forgetful.render('{{ payload.firstName | upcase }}', variables)).toBe('ADA');
      expect(forgetful.render('{{payload.firstName}}!', variables)).toBe('Ada!');
      expect(forgetful.render(`{{payload.firstName}} ${round}`, variables)).toBe(`Ada ${round}`);
    }
  });
});

describe('StepTemplateRenderer.renderEmail', () => {
  const renderer = new StepTemplateRenderer();

  it('lays out editor blocks with a hidden preheader, escaping values, and derives the text part', async () => {
    const email = await renderer.renderEmail(
      {
        subject: 'Welcome {{payload.firstName}}',
        preheader: 'Your account at {{payload.company}}',
        content: [
          { type: 'text', content: '<h1>Hello {{subscriber.firstName}}</h1><p>{{payload.company}} invited you.</p>' },
          { type: 'button', content: 'Open {{tenant.name}}', url: 'https://example.com/?a=1&b={{payload.count}}', styles: { textAlign: 'center' } },
        ],
      },
      variables,
    );
    expect(email.subject).toBe('Welcome Ada');
    expect(email.html).toContain('<h1>Hello Grace</h1><p>Tom &amp; Jerry &lt;Ltd&gt; invited you.</p>');
    expect(email.html).toContain('href="https://example.com/?a=1&amp;b=3"');
    expect(email.html).toContain('text-align:center');
    expect(email.html).toMatch(/<div class="preheader" style="display:none[^"]*">Your account at Tom &amp; Jerry &lt;Ltd&gt;<\/div>/);
    expect(email.text).toBe('HELLO GRACE\n\nTom & Jerry <Ltd> invited you.\n\nOpen Acme [https://example.com/?a=1&b=3]');
  });

  it('sends custom HTML as written (rendered), with a text part', async () => {
    const email = await renderer.renderEmail(
      { subject: 'Hi', contentType: 'customHtml', content: '<html><body><p>Hi {{payload.firstName}} &amp; co</p></body></html>' },
      variables,
    );
    expect(email.html).toBe('<html><body><p>Hi Ada &amp; co</p></body></html>');
    expect(email.text).toBe('Hi Ada & co');
  });
});

describe('StepTemplateRenderer: v2 workflows', () => {
  const renderer = new StepTemplateRenderer();
  const liquid = { engine: 'liquid' as const };

  it('renders with Liquid only, the payload under `payload` alone, whatever the syntax', () => {
    expect(renderer.render('{{payload.firstName}} {{firstName}}|', variables, liquid)).toBe('Ada |');
    // Handlebars would run the helper; Liquid reads a variable named `uppercase`.
    expect(renderer.render('{{uppercase payload.firstName}}', variables, liquid)).toBe('');
    expect(renderer.render('{{ steps.digest.eventCount }}', { ...variables, steps: { digest: { eventCount: 2 } } }, liquid)).toBe('2');
  });

  it('sanitises HTML output when asked: scripts, event handlers and javascript: links go, markup stays', () => {
    const source = '<p onclick="steal()">Hi {{payload.note}}</p><script>alert(1)</script><a href="javascript:alert(1)">x</a>';
    expect(renderer.render(source, variables, { ...liquid, sanitize: true })).toBe("<p>Hi it's <b>bold</b></p><a>x</a>");
    expect(renderer.render(source, variables, liquid)).toBe(
      '<p onclick="steal()">Hi it\'s <b>bold</b></p><script>alert(1)</script><a href="javascript:alert(1)">x</a>',
    );
  });

  it('html editor: the HTML in the layout, or (layoutId null) as written with the preheader hidden first; sanitised when asked', async () => {
    const template = {
      subject: 'Hi {{ payload.firstName }}',
      preheader: 'Soon',
      content: '<p>Hi {{ payload.firstName }}</p><script>x()</script>',
      editorType: 'html' as const,
    };
    const laidOut = await renderer.renderEmail(template, variables, liquid);
    expect(laidOut.subject).toBe('Hi Ada');
    expect(laidOut.html).toContain('<title>Hi Ada</title>');
    expect(laidOut.html).toContain('<p>Hi Ada</p><script>x()</script>');
    const alone = await renderer.renderEmail({ ...template, layout: false }, variables, { ...liquid, sanitize: true });
    expect(alone.html).toBe('<div class="preheader" style="display:none;max-height:0;overflow:hidden;mso-hide:all">Soon</div><p>Hi Ada</p>');
    expect(alone.text).toBe('Hi Ada');
  });

  it('block editor: the document rendered by Maily with its variables, fallbacks, conditions, lists and buttons rendered', async () => {
    const document = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'Hello ' },
            { type: 'variable', attrs: { id: 'subscriber.firstName' } },
            { type: 'text', text: ' from {{ payload.company }}, ' },
            { type: 'variable', attrs: { id: 'payload.missing', fallback: 'friend' } },
          ],
        },
        { type: 'paragraph', attrs: { showIfKey: 'payload.nope' }, content: [{ type: 'text', text: 'HIDDEN' }] },
        {
          type: 'repeat',
          attrs: { each: 'payload.items', iterations: 2 },
          content: [{ type: 'paragraph', content: [{ type: 'variable', attrs: { id: 'payload.items.name' } }] }],
        },
        { type: 'button', attrs: { text: 'Open', url: 'https://example.com/{{ payload.count }}', alignment: 'left', variant: 'filled' } },
      ],
    };
    const email = await renderer.renderEmail(
      { subject: 'S', content: JSON.stringify(document), editorType: 'block', layout: false, preheader: 'Peek' },
      variables,
      { ...liquid, sanitize: true },
    );
    expect(email.html).toMatch(/^<!DOCTYPE html/);
    expect(email.html).toContain('Hello Grace from Tom &amp; Jerry &lt;Ltd&gt;, friend');
    expect(email.html).not.toContain('HIDDEN');
    expect(email.html).toContain('Widget');
    expect(email.html).toContain('Apple');
    expect(email.html).not.toContain('Saw');
    expect(email.html).toContain('href="https://example.com/3"');
    expect(email.html).toContain('Peek');
    expect(email.text).toContain('Hello Grace from Tom & Jerry <Ltd>, friend');

    const laidOut = await renderer.renderEmail({ subject: 'S', content: JSON.stringify(document), editorType: 'block' }, variables, liquid);
    expect(laidOut.html).toContain('<title>S</title>');
    expect(laidOut.html.match(/<body/g)).toHaveLength(1);
    expect(laidOut.html).toContain('Grace');
  });

  it('an email layout: the body where its frame says {{ content }}, the frame rendered with the same variables; HTML or block frame', async () => {
    const html = { body: '<html><body><h1>Acme</h1>{{ content }}<p>To {{ subscriber.firstName }}</p></body></html>', editorType: 'html' as const };
    const step = { subject: 'S', preheader: 'Soon', content: '<html><body><p>Hi {{ payload.firstName }}</p></body></html>', editorType: 'html' as const };
    const framed = await renderer.renderEmail({ ...step, layout: html }, variables, { ...liquid, sanitize: true });
    expect(framed.html).toBe(
      '<html><body><div class="preheader" style="display:none;max-height:0;overflow:hidden;mso-hide:all">Soon</div><h1>Acme</h1><p>Hi Ada</p><p>To Grace</p></body></html>',
    );
    expect(framed.text).toBe('ACME\n\nHi Ada\n\nTo Grace');

    const block = {
      body: JSON.stringify({
        type: 'doc',
        content: [
          { type: 'paragraph', content: [{ type: 'text', text: 'Header for {{ subscriber.firstName }}' }] },
          { type: 'paragraph', content: [{ type: 'variable', attrs: { id: 'content' } }] },
        ],
      }),
      editorType: 'block' as const,
    };
    const inBlock = await renderer.renderEmail(
      { subject: 'S', content: '<table><tr><td>Row {{ payload.firstName }}</td></tr></table>', editorType: 'html', layout: block },
      variables,
      liquid,
    );
    expect(inBlock.html).toMatch(/^<!DOCTYPE html/);
    expect(inBlock.html).toContain('Header for Grace');
    expect(inBlock.html).toContain('<table><tr><td>Row Ada</td></tr></table>');
    expect(inBlock.html).not.toMatch(/layout-content-/);
  });

  it('refuses a block body that is not a block editor document', async () => {
    await expect(renderer.renderEmail({ subject: 'S', content: '<p>x</p>', editorType: 'block' }, variables, liquid)).rejects.toBeInstanceOf(
      TemplateRenderError,
    );
  });
});
