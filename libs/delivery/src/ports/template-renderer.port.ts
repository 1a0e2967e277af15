/** Variables a step template sees (Novu v1 also spreads the payload at the root). */
export interface TemplateVariables {
  payload: Record<string, unknown>;
  subscriber: Record<string, unknown>;
  actor?: Record<string, unknown>;
  tenant?: Record<string, unknown>;
  step?: { digest: boolean; events: Record<string, unknown>[]; total_count: number };
  /** v2 style: steps.<stepId>.events / eventCount. */
  steps?: Record<string, unknown>;
  [name: string]: unknown;
}

/** Renders step content; throws TemplateRenderError (domain) on any parse, render or limit failure. */
export interface TemplateRenderer {
  render(source: string, variables: TemplateVariables): string;
}
export const TEMPLATE_RENDERER = Symbol('TemplateRenderer');
