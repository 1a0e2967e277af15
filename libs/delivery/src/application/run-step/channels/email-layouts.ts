import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { LAYOUT_REPOSITORY, Layout, LayoutRepository, StepTemplate } from '@app/workflows';
import { EmailTemplateSource } from '../../../ports/template-renderer.port';

/**
 * What the renderer needs of an email step's template, its layout included. A v2 step is sent in the
 * layout its `layoutId` names; left out (or naming a layout since deleted), in the environment's
 * default layout, else the service's own; `null`, alone. A layout without email controls frames
 * nothing (the body alone), as Novu's. A v1 step keeps the service's layout for editor content.
 */
@Injectable()
export class EmailLayouts {
  constructor(@Inject(LAYOUT_REPOSITORY) private readonly layouts: LayoutRepository) {}

  async source(scope: EnvironmentScope, template: StepTemplate): Promise<EmailTemplateSource> {
    const source = emailSource(template);
    if (!template.editorType) return source;
    if (template.layoutId === null) return { ...source, layout: false };
    const layout = await this.layoutFor(scope, template);
    return layout ? { ...source, layout: frameOf(layout) } : source;
  }

  /** The layout a v2 email step is sent in (null: none, or the service's own). */
  async layoutFor(scope: EnvironmentScope, template: Pick<StepTemplate, 'editorType' | 'layoutId'>): Promise<Layout | null> {
    if (!template.editorType || template.layoutId === null) return null;
    return (
      (typeof template.layoutId === 'string' ? await this.layouts.findForEmail(scope, template.layoutId) : null) ??
      (await this.layouts.findForEmail(scope, undefined))
    );
  }
}

function frameOf(layout: Layout): EmailTemplateSource['layout'] {
  const email = layout.controlValues?.email;
  return email ? { body: email.body, editorType: email.editorType } : false;
}

/** The template's own parts, before its layout is known. */
function emailSource(template: StepTemplate): EmailTemplateSource {
  return {
    subject: template.subject,
    preheader: template.preheader,
    content: template.content,
    contentType: template.contentType,
    editorType: template.editorType,
  };
}
