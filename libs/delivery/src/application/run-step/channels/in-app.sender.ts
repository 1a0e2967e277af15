import { Inject, Injectable, Optional } from '@nestjs/common';
import { METRICS, Metrics, OUTBOUND_EVENTS, OutboundEvents, noOutboundEvents, noopMetrics } from '@app/kernel';
import { DETAIL } from '../../../domain/execution-detail';
import { MessageCta, messageEventObject } from '../../../domain/message';
import { selectIntegration } from '../../../domain/select-integration';
import { StepContext } from '../step-context';
import { RunAheadWrites } from '../step-writes';
import { StepOutcome } from '../step-outcome';
import { ChannelSupport } from './channel-support';

/**
 * In-app: the message is the delivery (stored for the subscriber's feed); no provider call, so it
 * needs only RunAheadWrites and may run against a chain not written yet.
 */
@Injectable()
export class InAppSender {
  constructor(
    private readonly support: ChannelSupport,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics = noopMetrics,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  async execute(context: StepContext<RunAheadWrites>): Promise<StepOutcome> {
    const { job, step } = context;
    const template = step.template;
    const content = Array.isArray(template.content)
      ? template.content.map((block) => this.support.render(context, block.content) ?? '').join('\n')
      : (this.support.render(context, template.content) ?? '');
    const cta = template.cta
      ? ({ ...template.cta, data: template.cta.data?.url ? { url: this.support.render(context, template.cta.data.url) } : template.cta.data } as MessageCta)
      : undefined;
    const rendered = { content, subject: this.support.render(context, template.subject), title: this.support.render(context, template.title), cta };

    const active = await this.support.activeIntegrations(context, 'in_app');
    const integration = selectIntegration(active, 'in_app', job.overrides, this.support.selection(context));
    if (!integration) return this.support.noIntegration(context);
    const { created, message } = await context.writes.insertMessage(
      this.support.recorder.message(context, { id: job.id, providerId: integration.providerId, rendered, status: 'sent' }),
    );
    if (created) {
      this.metrics.delivery('in_app', integration.providerId, 'sent');
      await this.support.recorder.detail(context, 'Success', DETAIL.MESSAGE_SENT, { providerId: integration.providerId });
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
