import { Inject, Injectable } from '@nestjs/common';
import { Layout } from '@app/workflows';
import { TemplateRenderError } from '../../domain/errors';
import { EmailFrame, TEMPLATE_RENDERER, TemplateRenderer } from '../../ports/template-renderer.port';
import { PreviewError, SAMPLE_SUBSCRIBER } from '../preview-step/preview-step.use-case';

export interface PreviewLayoutCommand {
  layout: Layout;
  /** Controls to render instead of the layout's own (`email: {body, editorType}`). */
  controlValues?: Record<string, unknown>;
  /** The subscriber fields to render with; the rest are sample values. */
  subscriber?: Record<string, unknown>;
}

export interface LayoutPreview {
  previewPayloadExample: { subscriber: Record<string, unknown> };
  result: { type: 'email'; preview?: { body: string }; error?: PreviewError };
}

/** What stands for a step's body in a layout's preview. */
const SAMPLE_CONTENT =
  '<div style="padding:24px;border:1px dashed #c2c7d0;color:#5c6370;text-align:center;font-family:Arial,Helvetica,sans-serif">' +
  'The email step’s body goes here</div>';

/**
 * POST /v2/layouts/{layoutId}/preview: the layout's frame (or the given controls) rendered as
 * delivery renders it, with a sample body where it says `{{ content }}` and the given subscriber (the
 * rest sample values). A template that cannot render answers `error`, not a failure. Nothing is stored.
 */
@Injectable()
export class PreviewLayout {
  constructor(@Inject(TEMPLATE_RENDERER) private readonly renderer: TemplateRenderer) {}

  async execute({ layout, controlValues, subscriber: given }: PreviewLayoutCommand): Promise<LayoutPreview> {
    const subscriber = { ...SAMPLE_SUBSCRIBER, ...given };
    const frame = frameOf(controlValues) ?? frameOf(layout.controlValues) ?? false;
    try {
      const email = await this.renderer.renderEmail(
        { subject: '', content: SAMPLE_CONTENT, editorType: 'html', layout: frame },
        { payload: {}, subscriber },
        { engine: 'liquid', sanitize: true },
      );
      return { previewPayloadExample: { subscriber }, result: { type: 'email', preview: { body: email.html } } };
    } catch (error) {
      if (!(error instanceof TemplateRenderError)) throw error;
      const hint = 'Check the template syntax and the variables it reads (subscriber).';
      return {
        previewPayloadExample: { subscriber },
        result: { type: 'email', error: { title: 'The layout could not be rendered', message: error.message, hint } },
      };
    }
  }
}

/** The email frame controls describe, when they hold one. */
function frameOf(controls: { email?: unknown } | null | undefined): EmailFrame | undefined {
  const email = controls?.email as Record<string, unknown> | undefined;
  if (!email || typeof email.body !== 'string') return undefined;
  return { body: email.body, editorType: email.editorType === 'html' ? 'html' : 'block' };
}
