import { StepTemplate, Workflow, isV2Workflow } from '@app/workflows';
import {
  EmailTemplateSource,
  RenderEngineOptions,
  RenderOptions,
  RenderedEmail,
  TemplateRenderer,
  TemplateVariables,
} from '../../ports/template-renderer.port';
import { StepContext, stepVariables } from './step-context';

/**
 * The templates of one step as they render: with the step's variables and its workflow's engine
 * (Liquid for a workflow written through v2, the one place that choice is made), and, for a v2
 * workflow, HTML output sanitised unless the step says `disableOutputSanitization`.
 */
export class StepTemplates {
  /** The step's workflow was written through v2: Liquid, and v2's semantics. */
  readonly v2: boolean;
  private readonly engine: RenderEngineOptions['engine'];
  private readonly sanitizes: boolean;

  constructor(
    private readonly renderer: TemplateRenderer,
    readonly variables: TemplateVariables,
    workflow: Pick<Workflow, 'origin'>,
    template: Pick<StepTemplate, 'disableOutputSanitization'>,
  ) {
    this.v2 = isV2Workflow(workflow);
    this.engine = this.v2 ? 'liquid' : undefined;
    this.sanitizes = this.engine === 'liquid' && template.disableOutputSanitization !== true;
  }

  /** `revealSecrets`: secret environment variables render as they are (a request sent out, never shown). */
  static of(
    renderer: TemplateRenderer,
    context: Pick<StepContext, 'job' | 'subscriber' | 'actor' | 'workflow' | 'steps' | 'step' | 'translations' | 'env' | 'contexts'>,
    revealSecrets = false,
  ): StepTemplates {
    const variables = stepVariables(context, revealSecrets);
    if (context.translations) variables.t = context.translations;
    return new StepTemplates(renderer, variables, context.workflow, context.step.template);
  }

  /**
   * One template (a missing one stays undefined). `sanitize`: output Novu sanitises (an in-app subject
   * and body), sanitised when the step's workflow and options say so.
   */
  render(source: string | undefined, options: Pick<RenderOptions, 'html' | 'sanitize'> = {}): string | undefined {
    if (!source) return undefined;
    return this.renderer.render(source, this.variables, { engine: this.engine, html: options.html, sanitize: options.sanitize === true && this.sanitizes });
  }

  /** A value whose strings are templates (v2 in-app `data`), each rendered as text. */
  renderValues(value: unknown): unknown {
    if (typeof value === 'string') return this.render(value) ?? '';
    if (Array.isArray(value)) return value.map((item) => this.renderValues(item));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.renderValues(item)]));
    return value;
  }

  renderEmail(template: EmailTemplateSource): Promise<RenderedEmail> {
    return this.renderer.renderEmail(template, this.variables, { engine: this.engine, sanitize: this.sanitizes });
  }
}
