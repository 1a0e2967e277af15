/** Variables a step template sees (Novu v1 also spreads the payload at the root). */
export interface TemplateVariables {
  payload: Record<string, unknown>;
  subscriber: Record<string, unknown>;
  actor?: Record<string, unknown>;
  tenant?: Record<string, unknown>;
  step?: { digest: boolean; events: Record<string, unknown>[]; total_count: number };
  /** v2 style: steps.<stepId>.events / eventCount. */
  steps?: Record<string, unknown>;
  /** `{{ t.<key> }}` (Liquid only): the workflow's translations in the subscriber's locale. */
  t?: TemplateTranslations;
  [name: string]: unknown;
}

/**
 * The texts `{{ t.<key> }}` reads. A text may hold Liquid, rendered with the step's variables (and
 * `count` when one is given: `{{ t.<key> | count: n }}` picks the key's plural form).
 */
export interface TemplateTranslations {
  /** The text of `key` (nested keys joined by dots), undefined when no locale has it. */
  lookup(key: string, count?: number): string | undefined;
}

/**
 * How a workflow's templates are rendered: `liquid` for one written through Novu's v2 API (Liquid
 * only, the payload under `payload` alone); absent (v1), Handlebars with Novu's helpers unless the
 * source uses Liquid syntax, and payload keys also at the root.
 */
export interface RenderEngineOptions {
  engine?: 'liquid';
  /** HTML output goes through the HTML sanitiser (scripts, event handlers and unsafe URLs removed): v2 output unless `disableOutputSanitization`. */
  sanitize?: boolean;
}

export interface RenderOptions extends RenderEngineOptions {
  /** The output is HTML: values are HTML-escaped (Handlebars `{{x}}`; `{{{x}}}` stays raw). */
  html?: boolean;
}

/** One block of Novu's v1 email editor. */
export interface EmailBlockSource {
  type: 'text' | 'button';
  content: string;
  url?: string;
  styles?: { textAlign?: 'left' | 'right' | 'center' };
}

/** An email step's template: editor blocks or custom HTML, with subject and preheader. */
export interface EmailTemplateSource {
  subject?: string;
  preheader?: string;
  content?: string | EmailBlockSource[];
  /** `customHtml`: `content` is the whole HTML body; `editor` (default): blocks laid out by the service. */
  contentType?: 'editor' | 'customHtml';
  /**
   * v2: `block` — `content` is Novu's block editor document (Maily's TipTap JSON, as a string),
   * rendered to HTML by Maily's renderer; `html` — `content` is HTML. Absent: v1 (`contentType`).
   */
  editorType?: 'block' | 'html';
  /**
   * v2: an email layout's frame, the body sent where it says `{{ content }}`; false — the body alone
   * (`layoutId: null`, or a layout with no email controls); absent — the service's own layout.
   */
  layout?: false | EmailFrame;
}

/** An email layout's frame: HTML or a block editor document holding `{{ content }}`, rendered with the step's variables. */
export interface EmailFrame {
  body: string;
  editorType: 'html' | 'block';
}

export interface RenderedEmail {
  subject: string;
  html: string;
  /** The plain-text part, derived from the HTML. */
  text: string;
  /** Editor blocks, each with its content and url rendered (what Novu keeps as the message content); absent for HTML content. */
  blocks?: EmailBlockSource[];
}

/** Renders step content; throws TemplateRenderError (domain) on any parse, render or limit failure. */
export interface TemplateRenderer {
  render(source: string, variables: TemplateVariables, options?: RenderOptions): string;
  /** Subject, HTML body (layout, preheader, blocks, a block editor document or custom HTML) and text part of an email step. */
  renderEmail(template: EmailTemplateSource, variables: TemplateVariables, options?: RenderEngineOptions): Promise<RenderedEmail>;
}
export const TEMPLATE_RENDERER = Symbol('TemplateRenderer');
