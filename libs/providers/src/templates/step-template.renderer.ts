import { randomUUID } from 'node:crypto';
import {
  EmailFrame,
  EmailTemplateSource,
  RenderEngineOptions,
  RenderedEmail,
  RenderOptions,
  TemplateRenderError,
  TemplateRenderer,
  TemplateVariables,
} from '@app/delivery';
import { LAYOUT_CONTENT_VARIABLE } from '@app/workflows';
import { documentBody, renderBlockEmail } from './block-email';
import { emailText, layoutEmail } from './email-layout';
import { sanitizeHtml } from './html-sanitizer';
import { HandlebarsEngine, RenderLimitError } from './handlebars.engine';
import { LiquidTemplateRenderer, LiquidRendererOptions, DEFAULT_LIQUID_RENDERER_OPTIONS } from './liquid.renderer';

/** Names the engine sets at the root; a payload key with the same name stays under `payload` only. */
const RESERVED_ROOT_NAMES = new Set(['payload', 'subscriber', 'actor', 'tenant', 'step', 'steps', 'workflow', 'context', 'env']);

const LIQUID = 'liquid';

/** What a layout's `{{ content }}` renders to, replaced by the step's body afterwards: the body is HTML that neither Liquid nor Maily may touch. */
const CONTENT_SLOT = `layout-content-${randomUUID().replace(/-/g, '')}`;

/** Liquid-only syntax: a `{% tag %}`, `{{-` whitespace control, or a `| filter` inside an output tag. */
export function usesLiquidSyntax(source: string): boolean {
  if (/\{%|\{\{-/.test(source)) return true;
  for (const match of source.matchAll(/\{\{(?!\{)([\s\S]*?)\}\}/g)) {
    const inner = match[1].trim();
    if (!/^[#/^!>]|^else\b/.test(inner) && inner.includes('|')) return true;
  }
  return false;
}

/**
 * Step templates as Novu renders them: a v2 workflow's (`engine: 'liquid'`) with LiquidJS, the
 * payload under `payload` only; a v1 workflow's with Handlebars (Novu's helpers) unless the template
 * uses Liquid syntax, then LiquidJS, payload keys also at the root. In HTML output (email bodies)
 * Handlebars escapes values, `{{{x}}}` excepted; Liquid, as Novu v2, escapes nothing, and v2 output is
 * sanitised instead (`sanitize`). Text channels get values as they are. Limits apply to both
 * engines: source size, render time, output/memory.
 */
export class StepTemplateRenderer implements TemplateRenderer {
  private readonly options: Required<LiquidRendererOptions>;
  private readonly liquid: LiquidTemplateRenderer;
  private readonly handlebars: HandlebarsEngine;
  /** Per source: Liquid, or its size in bytes (a workflow's few templates are rendered for every delivery). */
  private readonly sourceKinds = new Map<string, typeof LIQUID | number>();

  constructor(options: LiquidRendererOptions = {}) {
    this.options = { ...DEFAULT_LIQUID_RENDERER_OPTIONS, ...options };
    this.liquid = new LiquidTemplateRenderer(this.options);
    this.handlebars = new HandlebarsEngine(this.options.cacheSize);
  }

  render(source: string, variables: TemplateVariables, options: RenderOptions = {}): string {
    if (source === undefined || source === null || source === '') return '';
    if (typeof source !== 'string') source = String(source);
    const output = this.renderWith(source, variables, options);
    return options.sanitize ? sanitizeHtml(output) : output;
  }

  private renderWith(source: string, variables: TemplateVariables, options: RenderOptions): string {
    if (options.engine === 'liquid') return this.liquid.render(source, variables, false);
    const kind = this.sourceKind(source);
    if (kind === LIQUID) return this.liquid.render(source, variables);
    const bytes = kind;
    if (bytes > this.options.maxTemplateBytes) {
      throw new TemplateRenderError(`Template is ${bytes} bytes, more than the ${this.options.maxTemplateBytes} allowed`, 'too_large', {
        bytes,
        limit: this.options.maxTemplateBytes,
      });
    }
    try {
      return this.handlebars.render(source, handlebarsData(variables), options.html === true, {
        deadline: Date.now() + this.options.renderTimeLimitMs,
        maxOutput: this.options.memoryLimit,
      });
    } catch (error) {
      throw toRenderError(error);
    }
  }

  async renderEmail(template: EmailTemplateSource, variables: TemplateVariables, options: RenderEngineOptions = {}): Promise<RenderedEmail> {
    if (template.editorType) return this.renderV2Email(template, variables, options);
    const engine = { engine: options.engine };
    const subject = this.render(template.subject ?? '', variables, engine);
    let html: string;
    if (template.contentType === 'customHtml' || typeof template.content === 'string') {
      const source = typeof template.content === 'string' ? template.content : '';
      html = this.render(source, variables, { ...engine, html: true });
      // Editor text saved as a plain string still gets the layout.
      if (template.contentType !== 'customHtml')
        html = layoutEmail(escapeHtml(subject), this.renderPreheader(template, variables, engine), [{ type: 'text', content: html }]);
    } else {
      const rendered = (template.content ?? []).map((block) => ({
        ...block,
        content: this.render(block.content ?? '', variables, { ...engine, html: true }),
        ...(block.url ? { url: this.render(block.url, variables, { ...engine, html: true }) } : {}),
      }));
      const blocks = rendered.map((block) => ({
        type: block.type,
        content: block.content,
        ...(block.url ? { url: block.url } : {}),
        ...(block.styles?.textAlign ? { textAlign: block.styles.textAlign } : {}),
      }));
      html = layoutEmail(escapeHtml(subject), this.renderPreheader(template, variables, engine), blocks);
      return { subject, html, text: emailText(html), blocks: rendered };
    }
    return { subject, html, text: emailText(html) };
  }

  /**
   * A v2 email step: the body is HTML as written or a block editor document rendered by Maily; in an
   * email layout's frame (`layout`: where it says `{{ content }}`), in the service's layout (`layout`
   * absent), or alone (`layout: false`: HTML as is, Maily's whole document); sanitised when asked. The
   * preheader is text: hidden at the top of the body.
   */
  private async renderV2Email(template: EmailTemplateSource, variables: TemplateVariables, options: RenderEngineOptions): Promise<RenderedEmail> {
    const engine = { engine: options.engine };
    const subject = this.render(template.subject ?? '', variables, engine);
    const preheaderText = template.preheader ? this.render(template.preheader, variables, engine) : '';
    const preheader = preheaderText ? escapeHtml(preheaderText) : undefined;
    const source = typeof template.content === 'string' ? template.content : '';
    const frame = template.layout;
    let body: string;
    if (template.editorType === 'block') {
      body = source.trim()
        ? await renderBlockEmail(source, (text) => this.render(text, variables, engine), frame !== false || !preheaderText ? undefined : preheaderText)
        : '';
      if (frame !== false) body = documentBody(body);
    } else {
      body = this.render(source, variables, { ...engine, html: true });
      if (frame) body = documentBody(body);
      else if (frame === false && preheader) body = withHiddenPreheader(body, preheader);
    }
    let html: string;
    if (frame === undefined) html = layoutEmail(escapeHtml(subject), preheader, [{ type: 'text', content: body }]);
    else if (frame === false) html = body;
    else {
      html = await this.renderFrame(frame, variables, engine, body);
      if (preheader) html = withHiddenPreheader(html, preheader);
    }
    if (options.sanitize) html = sanitizeHtml(html);
    return { subject, html, text: emailText(html) };
  }

  /** A layout's frame rendered with the step's variables, the body where the frame says `{{ content }}`. */
  private async renderFrame(frame: EmailFrame, variables: TemplateVariables, engine: RenderEngineOptions, body: string): Promise<string> {
    const framing = { ...variables, [LAYOUT_CONTENT_VARIABLE]: CONTENT_SLOT };
    const framed =
      frame.editorType === 'block'
        ? await renderBlockEmail(frame.body, (text) => this.render(text, framing, engine))
        : this.render(frame.body, framing, { ...engine, html: true });
    return framed.split(CONTENT_SLOT).join(body);
  }

  private sourceKind(source: string): typeof LIQUID | number {
    let kind = this.sourceKinds.get(source);
    if (kind === undefined) {
      kind = usesLiquidSyntax(source) ? LIQUID : Buffer.byteLength(source, 'utf8');
      // a source longer than the limit is not kept (its bytes are never fewer than its UTF-16 length, so
      // it is over the limit): the memory holds at most cacheSize sources of that length
      if (source.length > this.options.maxTemplateBytes) return kind;
      if (this.sourceKinds.size >= this.options.cacheSize) this.sourceKinds.clear();
      this.sourceKinds.set(source, kind);
    }
    return kind;
  }

  get cachedTemplates(): number {
    return this.liquid.cachedTemplates + this.handlebars.cachedTemplates;
  }

  private renderPreheader(template: EmailTemplateSource, variables: TemplateVariables, engine: RenderEngineOptions): string | undefined {
    return template.preheader ? this.render(template.preheader, variables, { engine: engine.engine, html: true }) : undefined;
  }
}

/** Novu v1's context: `{...payload, subscriber, step, tenant, actor, …}`, the reserved names winning. */
function handlebarsData(variables: TemplateVariables): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const payload = variables.payload ?? {};
  for (const key of Object.keys(payload)) if (!RESERVED_ROOT_NAMES.has(key)) data[key] = payload[key];
  for (const key of Object.keys(variables)) {
    const value = variables[key as keyof TemplateVariables];
    if (value !== undefined) data[key] = value;
  }
  data.payload = payload;
  return data;
}

/** The preheader as hidden preview text, first in the body (after `<body>` when there is one). */
function withHiddenPreheader(html: string, preheader: string): string {
  const hidden = `<div class="preheader" style="display:none;max-height:0;overflow:hidden;mso-hide:all">${preheader}</div>`;
  const body = /<body[^>]*>/i.exec(html);
  return body ? `${html.slice(0, body.index + body[0].length)}${hidden}${html.slice(body.index + body[0].length)}` : `${hidden}${html}`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function toRenderError(error: unknown): TemplateRenderError {
  if (error instanceof TemplateRenderError) return error;
  const message = (error as Error)?.message ?? String(error);
  if (error instanceof RenderLimitError) return new TemplateRenderError(`Template exceeded a rendering limit: ${message}`, 'limit', { cause: message });
  if (error instanceof RangeError) return new TemplateRenderError(`Template exceeded a rendering limit: ${message}`, 'limit', { cause: message });
  const parse = /Parse error|Expecting|Invalid|unexpected/i.test(message) && !/Missing helper/.test(message);
  return new TemplateRenderError(`Template ${parse ? 'could not be parsed' : 'could not be rendered'}: ${message}`, parse ? 'parse' : 'render', {
    cause: message,
  });
}
