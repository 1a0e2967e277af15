import Handlebars from 'handlebars';
import { HandlebarsEngine } from './handlebars.engine';

const budget = () => ({ deadline: Date.now() + 1_000, maxOutput: 1_000_000 });

const data: Record<string, unknown> = {
  payload: { order: 0, flag: false, none: null, name: 'Tom & "Jerry" <Ltd>', items: ['a', 'b'], nested: { deep: { x: 1 } }, text: 'abc' },
  order: 7,
  subscriber: { subscriberId: 'sub-1', firstName: 'Grace', createdAt: new Date('2024-06-01T12:34:56Z') },
  step: { digest: false, events: [], total_count: 0 },
};

/**
 * Templates of only text and `{{a.b}}` values render without Handlebars' per-render setup: these
 * compare that path with Handlebars itself (no helpers registered), text and HTML, value by value.
 */
const PLAIN: string[] = [
  'Order {{payload.order}} for {{ subscriber.subscriberId }} is on its way',
  '{{order}} {{payload.flag}} [{{payload.none}}] [{{payload.missing}}] [{{missing.deeper.still}}]',
  '{{payload.name}} / {{{payload.name}}}',
  '{{payload.items}} {{payload.items.length}} {{payload.items.[1]}} {{payload.text.length}}',
  '{{payload.nested}} {{payload.nested.deep.x}} {{subscriber.createdAt}}',
  '{{payload.constructor}} {{payload.__proto__}} {{payload.hasOwnProperty}} {{payload.text.toString}}',
  'a {{! a comment }} b \\{{payload.order}} {{~payload.order~}}   c',
  '{{!-- standalone --}}\nline {{step.total_count}}\n',
  'no values at all',
  '',
];

describe('HandlebarsEngine: plain templates', () => {
  const engine = new HandlebarsEngine();
  const reference = Handlebars.create();

  it.each(PLAIN)('%j renders as Handlebars renders it', (source) => {
    for (const html of [false, true]) {
      const expected = reference.compile(source, { noEscape: !html })(data);
      expect(engine.render(source, data, html, budget())).toBe(html ? expected.replace(/&#x27;/g, "'") : expected);
    }
  });

  it('leaves helpers, blocks and other paths to Handlebars', () => {
    expect(engine.render('{{json payload.items}}|{{#if payload.order}}y{{else}}n{{/if}}|{{this.order}}|{{@root.order}}', data, false, budget())).toBe(
      '["a","b"]|n|7|7',
    );
    expect(engine.render('{{lowercase}}', { lowercase: 'value' }, false, budget())).not.toBe('value'); // a helper's name calls the helper
  });

  it('calls a value that is a function, as Handlebars does', () => {
    expect(engine.render('{{greet}} {{payload.order}}', { greet: () => 'hi', payload: { order: 1 } }, false, budget())).toBe('hi 1');
  });
});
