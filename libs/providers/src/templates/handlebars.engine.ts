import { tz } from '@date-fns/tz';
import { format as formatDate } from 'date-fns/format';
import Handlebars, { HelperOptions } from 'handlebars';

export interface RenderBudget {
  /** Wall-clock deadline (ms since epoch) for one render. */
  deadline: number;
  /** Characters the loops of one render may produce. */
  maxOutput: number;
}

/** Thrown when a render passes its budget; the renderer reports it as a limit failure. */
export class RenderLimitError extends Error {}

type HelperThis = unknown;

/** A helper usable inline (`{{#if (gt a b)}}`) and as a block (`{{#gt a b}}…{{else}}…{{/gt}}`), as Novu's comparison helpers. */
function comparison(test: (a: unknown, b: unknown) => boolean) {
  return function (this: HelperThis, a: unknown, b: unknown, options: HelperOptions) {
    const passed = test(a, b);
    if (options && typeof options.fn === 'function') return passed ? options.fn(this) : options.inverse(this);
    return passed;
  };
}

const byProperty = (property: unknown) => (item: unknown) =>
  item !== null && typeof item === 'object' && typeof property === 'string' ? (item as Record<string, unknown>)[property] : undefined;

/** Formats `value` with date-fns tokens (Novu's helper), in UTC unless a time zone is given. */
export function formatDateValue(value: unknown, pattern: unknown, zone?: unknown): unknown {
  if (value === undefined || value === null || value === '' || typeof pattern !== 'string' || pattern === '') return value;
  const at = value instanceof Date ? value : typeof value === 'number' ? new Date(value) : new Date(String(value));
  if (Number.isNaN(at.getTime())) return value;
  try {
    return formatDate(at, pattern, { in: tz(typeof zone === 'string' && zone !== '' ? zone : 'UTC') });
  } catch {
    return value;
  }
}

/** Novu's numberFormat: fixed decimals with thousands and decimal separators from the hash. */
function numberFormat(value: unknown, options: HelperOptions): unknown {
  const number = Number(value);
  if (value === null || value === undefined || value === '' || Number.isNaN(number)) return value;
  const hash = options?.hash ?? {};
  const decimals = Math.max(0, Math.trunc(Number(hash.decimalLength ?? 2)) || 0);
  const thousands = typeof hash.thousandsSep === 'string' ? hash.thousandsSep : ',';
  const decimal = typeof hash.decimalSep === 'string' ? hash.decimalSep : '.';
  const [whole, fraction] = number.toFixed(decimals).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  return fraction === undefined ? grouped : `${grouped}${decimal}${fraction}`;
}

/** One piece of a plain template: text, or a value looked up by its path (`escaped`: `{{x}}`, not `{{{x}}}`). */
type PlainPart = string | { path: string[]; escaped: boolean };

const PATH_SEGMENT = /^[A-Za-z0-9_$]+$/;

/**
 * A template that is only text, comments and `{{a.b.c}}` values (no helper, block, partial,
 * `this`, `../` or `@data`), as its parts; null for any other. Such a template renders here by
 * the same lookups Handlebars' compiled code makes, without Handlebars' per-render setup (it
 * copies and wraps every registered helper on each call: most of an in-app step's render).
 */
function plainParts(hb: typeof Handlebars, source: string): PlainPart[] | null {
  const parts: PlainPart[] = [];
  for (const node of hb.parse(source).body) {
    if (node.type === 'ContentStatement') parts.push((node as hbs.AST.ContentStatement).value);
    else if (node.type === 'CommentStatement') continue;
    else if (node.type !== 'MustacheStatement') return null;
    else {
      const mustache = node as hbs.AST.MustacheStatement;
      const path = mustache.path as hbs.AST.PathExpression;
      if (path.type !== 'PathExpression' || mustache.params.length || mustache.hash || path.data || path.depth !== 0) return null;
      // `this.x`, `[x y]` and `x/y` read otherwise than their parts, and a lone name may be a helper
      if (path.original !== path.parts.join('.') || !path.parts.every((part) => PATH_SEGMENT.test(part))) return null;
      if (path.parts.length === 1 && Object.prototype.hasOwnProperty.call(hb.helpers, path.parts[0])) return null;
      parts.push({ path: path.parts, escaped: mustache.escaped });
    }
  }
  return parts;
}

/** Handlebars' property lookup: an own property, or nothing (prototype properties are denied by default). */
function lookup(parent: unknown, name: string): unknown {
  const value = (parent as Record<string, unknown>)[name];
  if (value === undefined || value === null) return value;
  return Object.prototype.hasOwnProperty.call(parent, name) ? value : undefined;
}

/**
 * Novu v1 templates are Handlebars: this is Handlebars itself with Novu's helpers (json, equals,
 * titlecase, uppercase, lowercase, pluralize, dateFormat, groupBy, unique, sortBy, numberFormat,
 * gt, gte, lt, lte, eq, ne), written from their documented behaviour. Loops are held to a render
 * budget (time and output), which Handlebars itself does not have.
 */
export class HandlebarsEngine {
  private readonly handlebars = Handlebars.create();
  private readonly cache = new Map<string, { escaped?: HandlebarsTemplateDelegate; raw?: HandlebarsTemplateDelegate; plain?: PlainPart[] | null }>();
  private budget?: RenderBudget & { produced: number };

  constructor(private readonly cacheSize = 1_000) {
    const hb = this.handlebars;
    hb.registerHelper('json', (value: unknown) => JSON.stringify(value));
    hb.registerHelper('equals', function (this: HelperThis, a: unknown, b: unknown, options: HelperOptions) {
      // Novu compares loosely here (== ), unlike eq.
      return a == b ? options.fn(this) : options.inverse(this); // eslint-disable-line eqeqeq
    });
    hb.registerHelper('titlecase', (value: unknown) =>
      typeof value === 'string'
        ? value
            .split(' ')
            .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
            .join(' ')
        : value,
    );
    hb.registerHelper('uppercase', (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value));
    hb.registerHelper('lowercase', (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value));
    hb.registerHelper('pluralize', (count: unknown, singular: unknown, plural: unknown) => (count === 1 || count === '1' ? singular : plural));
    hb.registerHelper('dateFormat', (value: unknown, pattern: unknown, ...rest: unknown[]) =>
      formatDateValue(value, pattern, rest.length > 1 ? rest[0] : undefined),
    );
    hb.registerHelper('groupBy', (items: unknown, property: unknown) => {
      if (!Array.isArray(items)) return [];
      const groups = new Map<unknown, unknown[]>();
      for (const item of items) {
        const key = byProperty(property)(item);
        if (key === undefined || key === null || key === '') continue;
        groups.set(key, [...(groups.get(key) ?? []), item]);
      }
      return [...groups].map(([key, grouped]) => ({ key, items: grouped }));
    });
    hb.registerHelper('unique', (items: unknown, property: unknown) => {
      if (!Array.isArray(items)) return '';
      return [...new Set(items.map(byProperty(property)).filter((value) => value !== undefined && value !== null && value !== ''))];
    });
    hb.registerHelper('sortBy', (items: unknown, property: unknown) => {
      if (!Array.isArray(items)) return '';
      const copy = [...items];
      if (typeof property !== 'string') return copy.sort();
      const read = byProperty(property);
      return copy.sort((a, b) => {
        const x = read(a) as never;
        const y = read(b) as never;
        return x < y ? -1 : x > y ? 1 : 0;
      });
    });
    hb.registerHelper('numberFormat', numberFormat);
    hb.registerHelper(
      'gt',
      comparison((a, b) => (a as number) > (b as number)),
    );
    hb.registerHelper(
      'gte',
      comparison((a, b) => (a as number) >= (b as number)),
    );
    hb.registerHelper(
      'lt',
      comparison((a, b) => (a as number) < (b as number)),
    );
    hb.registerHelper(
      'lte',
      comparison((a, b) => (a as number) <= (b as number)),
    );
    hb.registerHelper(
      'eq',
      comparison((a, b) => a === b),
    );
    hb.registerHelper(
      'ne',
      comparison((a, b) => a !== b),
    );

    // Every loop body goes through `each`: the place to hold a render to its budget.
    const each = hb.helpers.each;
    const engine = this; // eslint-disable-line @typescript-eslint/no-this-alias -- the helper's own `this` is Handlebars' context
    hb.registerHelper('each', function (this: HelperThis, context: unknown, options: HelperOptions) {
      const fn = options.fn;
      return each.call(this, context, {
        ...options,
        fn: (item: unknown, runtime?: Handlebars.RuntimeOptions) => {
          const chunk = fn(item, runtime);
          engine.spend(chunk.length);
          return chunk;
        },
      });
    });
  }

  /** Renders with HTML escaping (`html`) or without; throws Handlebars' own errors and RenderLimitError. */
  render(source: string, data: Record<string, unknown>, html: boolean, budget: RenderBudget): string {
    const template = this.compile(source, html);
    const plain = this.cache.get(source)?.plain;
    this.budget = { ...budget, produced: 0 };
    try {
      const output = (plain && this.renderPlain(plain, data, html)) ?? template(data);
      // Novu turns the apostrophe entity back into an apostrophe.
      return html ? output.replace(/&#x27;/g, "'") : output;
    } finally {
      this.budget = undefined;
    }
  }

  /** Fails fast on a syntax error (Handlebars compiles lazily). */
  private compile(source: string, html: boolean): HandlebarsTemplateDelegate {
    const key = html ? 'escaped' : 'raw';
    const hit = this.cache.get(source);
    if (hit?.[key]) {
      this.cache.delete(source);
      this.cache.set(source, hit);
      return hit[key];
    }
    this.handlebars.precompile(source); // throws on a parse error now rather than at first render
    const template = this.handlebars.compile(source, { noEscape: !html });
    this.cache.set(source, { ...hit, [key]: template, plain: hit ? hit.plain : plainParts(this.handlebars, source) });
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
    return template;
  }

  /**
   * A plain template's output, as its compiled code would give it: a value `!= null` is appended
   * (escaped in HTML unless `{{{…}}}`). Undefined when a value is a function, which Handlebars
   * would call: the compiled template renders it then.
   */
  private renderPlain(parts: PlainPart[], data: Record<string, unknown>, html: boolean): string | undefined {
    let output = '';
    for (const part of parts) {
      if (typeof part === 'string') {
        output += part;
        continue;
      }
      let value: unknown = data;
      for (const name of part.path) value = value === undefined || value === null ? value : lookup(value, name);
      if (typeof value === 'function') return undefined;
      if (html && part.escaped) output += this.handlebars.escapeExpression(value as string);
      else if (value !== undefined && value !== null) output += String(value);
    }
    return output;
  }

  private spend(characters: number): void {
    const budget = this.budget;
    if (!budget) return;
    budget.produced += characters;
    if (budget.produced > budget.maxOutput) throw new RenderLimitError(`output limit exceeded (${budget.maxOutput} characters)`);
    if (Date.now() > budget.deadline) throw new RenderLimitError('render time limit exceeded');
  }

  get cachedTemplates(): number {
    return this.cache.size;
  }
}
