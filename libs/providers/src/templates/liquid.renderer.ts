import { FilterImplOptions, Liquid, Template } from 'liquidjs';
import { TemplateRenderError, TemplateVariables } from '@app/delivery';
import { TEMPLATE_FILTERS } from './template-filters';
import { TranslationDrop } from './translation-drop';

export interface LiquidRendererOptions {
  /** Largest template source, in bytes. */
  maxTemplateBytes?: number;
  /** Longest render, in milliseconds (liquidjs renderLimit). */
  renderTimeLimitMs?: number;
  /** liquidjs memoryLimit: allocations (string/array sizes) per render. */
  memoryLimit?: number;
  /** Compiled templates kept, least recently used evicted first. */
  cacheSize?: number;
}

export const DEFAULT_LIQUID_RENDERER_OPTIONS: Required<LiquidRendererOptions> = {
  maxTemplateBytes: 512 * 1024,
  renderTimeLimitMs: 1_000,
  memoryLimit: 32 * 1024 * 1024,
  cacheSize: 1_000,
};

/** Names the engine sets at the root; a payload key with the same name stays under `payload` only. */
const RESERVED_ROOT_NAMES = new Set(['payload', 'subscriber', 'actor', 'tenant', 'step', 'steps', 'workflow', 'context', 'env', 'forloop']);

/**
 * LiquidJS with limits: source size, parse length, render time and memory, strict filters, no
 * file access (include/render see an empty template set). Compiled templates are cached by
 * source. Payload keys are also at the root (`{{firstName}}`), as in Novu v1, unless
 * `payloadAtRoot` is false (a v2 workflow's templates, as Novu v2 renders them).
 */
export class LiquidTemplateRenderer {
  private readonly options: Required<LiquidRendererOptions>;
  private readonly liquid: Liquid;
  private readonly cache = new Map<string, Template[]>();

  constructor(options: LiquidRendererOptions = {}) {
    this.options = { ...DEFAULT_LIQUID_RENDERER_OPTIONS, ...options };
    this.liquid = new Liquid({
      strictFilters: true,
      strictVariables: false,
      ownPropertyOnly: true,
      templates: {}, // no file system: include/render/layout cannot read files
      parseLimit: this.options.maxTemplateBytes * 2,
      renderLimit: this.options.renderTimeLimitMs,
      memoryLimit: this.options.memoryLimit,
      cache: false,
    });
    for (const [name, filter] of Object.entries(TEMPLATE_FILTERS)) this.liquid.registerFilter(name, filter);
    // `{{ t.cart.items | count: n }}`: the plural form of a translation key
    this.liquid.registerFilter('count', (value: unknown, count: unknown) =>
      value instanceof TranslationDrop ? TranslationDrop.withCount(value, count) : value,
    );
    // a translation key no locale has takes the `default` given (Maily's variable fallback is one)
    const builtinDefault = this.liquid.filters.default as Extract<FilterImplOptions, (...args: never[]) => unknown>;
    this.liquid.registerFilter('default', function (this: ThisParameterType<typeof builtinDefault>, value: unknown, ...args: unknown[]) {
      const given = value instanceof TranslationDrop ? TranslationDrop.resolve(value) : undefined;
      return builtinDefault.call(this, given ? (given.found ? given.text : undefined) : value, ...args);
    });
  }

  render(source: string, variables: TemplateVariables, payloadAtRoot = true): string {
    if (source === undefined || source === null || source === '') return '';
    if (typeof source !== 'string') source = String(source);
    const bytes = Buffer.byteLength(source, 'utf8');
    if (bytes > this.options.maxTemplateBytes) {
      throw new TemplateRenderError(`Template is ${bytes} bytes, more than the ${this.options.maxTemplateBytes} allowed`, 'too_large', {
        bytes,
        limit: this.options.maxTemplateBytes,
      });
    }
    const templates = this.compile(source);
    const scope = buildScope(variables, payloadAtRoot);
    // a translation's text is Liquid too: rendered with the same variables (and `count`, given one)
    if (variables.t)
      scope.t = new TranslationDrop(variables.t, (text, count) =>
        this.liquid.renderSync(this.compile(text), count === undefined ? scope : { ...scope, count }),
      );
    try {
      return this.liquid.renderSync(templates, scope);
    } catch (error) {
      throw toRenderError(error, 'render');
    }
  }

  /** Number of compiled templates held (for tests and metrics). */
  get cachedTemplates(): number {
    return this.cache.size;
  }

  private compile(source: string): Template[] {
    const hit = this.cache.get(source);
    if (hit) {
      // refresh recency: Map keeps insertion order, the first key is the least recently used
      this.cache.delete(source);
      this.cache.set(source, hit);
      return hit;
    }
    let templates: Template[];
    try {
      templates = this.liquid.parse(source);
    } catch (error) {
      throw toRenderError(error, 'parse');
    }
    this.cache.set(source, templates);
    if (this.cache.size > this.options.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
    return templates;
  }
}

function buildScope(variables: TemplateVariables, payloadAtRoot: boolean): Record<string, unknown> {
  const scope: Record<string, unknown> = {};
  const payload = variables.payload ?? {};
  if (payloadAtRoot) for (const [key, value] of Object.entries(payload)) if (!RESERVED_ROOT_NAMES.has(key)) scope[key] = value;
  for (const [key, value] of Object.entries(variables)) if (value !== undefined) scope[key] = value;
  scope.payload = payload;
  return scope;
}

function toRenderError(error: unknown, phase: 'parse' | 'render'): TemplateRenderError {
  if (error instanceof TemplateRenderError) return error;
  const message = (error as Error)?.message ?? String(error);
  if (/limit exceeded/i.test(message)) {
    return new TemplateRenderError(`Template exceeded a rendering limit: ${message}`, 'limit', { cause: message });
  }
  const what = phase === 'parse' ? 'could not be parsed' : 'could not be rendered';
  return new TemplateRenderError(`Template ${what}: ${message}`, phase, { cause: message });
}
