import { Inject, Injectable, Optional } from '@nestjs/common';
import { METRICS, Metrics, OUTBOUND_EVENTS, OutboundEvents, noOutboundEvents, noopMetrics } from '@app/kernel';
import { DETAIL } from '../../../domain/execution-detail';
import { MessageCta, MessageRedirect, messageEventObject } from '../../../domain/message';
import { selectIntegration } from '../../../domain/select-integration';
import type { CtaButton, Redirect, StepTemplate } from '@app/workflows';
import { StepContext } from '../step-context';
import { StepTemplates } from '../step-templates';
import { StepOutcome } from '../step-outcome';
import { ChannelSupport } from './channel-support';
import { RenderedMessage } from './step-recorder';

/**
 * In-app: the message is the delivery (stored for the subscriber's feed, written with its job's end
 * when the session is flushed); no provider call. Subject and body, the
 * redirect and each button's label and link are rendered; a v2 step's `avatar` and `data` (its
 * string values rendered) go on the message, and its subject and body are sanitised unless it
 * says `disableOutputSanitization`.
 */
@Injectable()
export class InAppSender {
  constructor(
    private readonly support: ChannelSupport,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics = noopMetrics,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  async execute(context: StepContext): Promise<StepOutcome> {
    const { job, step } = context;
    const template = step.template;
    const rendered = renderInApp(template, this.support.templates(context));

    const active = await this.support.activeIntegrations(context, 'in_app');
    const integration = selectIntegration(active, 'in_app', job.overrides, this.support.selection(context));
    if (!integration) return this.support.noIntegration(context);
    const { created, message } = context.session.insertMessage(
      this.support.recorder.message(context, { id: job.id, providerId: integration.providerId, rendered, status: 'sent' }),
    );
    if (created) {
      this.metrics.delivery('in_app', integration.providerId, 'sent');
      this.support.recorder.detail(context, 'Success', DETAIL.MESSAGE_SENT, { providerId: integration.providerId });
    }
    // Also when a rerun finds the message: the run that stored it may have stopped before publishing (same key: sent once).
    await this.events.publish(context.scope, {
      type: 'message.sent',
      key: message.id,
      object: () => messageEventObject(message, context.subscriber.subscriberId),
    });
    return { kind: 'completed', providerId: integration.providerId };
  }
}

/** What an in-app step shows, rendered: subject, body, call to action, and a v2 step's avatar and data. */
export function renderInApp(template: StepTemplate, templates: StepTemplates): RenderedMessage {
  const content = Array.isArray(template.content)
    ? template.content.map((block) => templates.render(block.content, { sanitize: true }) ?? '').join('\n')
    : (templates.render(template.content, { sanitize: true }) ?? '');
  return {
    content,
    subject: templates.render(template.subject, { sanitize: true }),
    title: templates.render(template.title),
    cta: renderedCta(template.cta, templates),
    avatar: templates.render(template.avatar),
    // A v2 step's notification data is its own (never the payload, as v1's is).
    ...(templates.v2 ? { data: templates.renderValues(template.data ?? {}) as Record<string, unknown> } : {}),
  };
}

/** The step's call to action as the message keeps it (Novu's shape): the redirect and each button's link rendered, with their targets. */
function renderedCta(cta: StepTemplate['cta'], templates: StepTemplates): MessageCta | undefined {
  if (!cta) return undefined;
  const redirect = (value: Redirect | undefined): MessageRedirect => {
    const url = templates.render(value?.url);
    return { ...(url ? { url } : {}), ...(value?.target ? { target: value.target } : {}) };
  };
  const button = (item: CtaButton) => ({
    type: item.type,
    content: templates.render(item.content) ?? '',
    ...(item.resultContent !== undefined ? { resultContent: item.resultContent } : {}),
    ...redirect(item.redirect),
  });
  return {
    type: cta.type,
    ...(cta.data ? { data: { ...cta.data, ...redirect(cta.data) } } : {}),
    ...(cta.action ? { action: { ...cta.action, buttons: cta.action.buttons?.map(button) } } : {}),
  };
}
