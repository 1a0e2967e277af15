import { Inject, Injectable } from '@nestjs/common';
import { SUPPRESSION_REPOSITORY, SuppressionRepository } from '../../../ports/suppression.repository.port';
import { skipSuppressed } from './suppressed-address';
import { DETAIL } from '../../../domain/execution-detail';
import { MESSAGE_ERROR_IDS } from '../../../domain/message';
import { failoverChain, selectIntegration } from '../../../domain/select-integration';
import { StepContext } from '../step-context';
import { StepOutcome } from '../step-outcome';
import { ChannelSupport, objectOf, stringOf } from './channel-support';
import { ProviderDelivery } from './provider-delivery';

/** SMS: one integration and its fallbacks, to `payload.phone` or the subscriber's phone (as Novu). */
@Injectable()
export class SmsSender {
  constructor(
    private readonly support: ChannelSupport,
    private readonly delivery: ProviderDelivery,
    @Inject(SUPPRESSION_REPOSITORY) private readonly suppressions: SuppressionRepository,
  ) {}

  async execute(context: StepContext): Promise<StepOutcome> {
    const { job, subscriber } = context;
    const content = this.support.render(context, stringOf(context.step.template.content)) ?? '';

    const active = await this.support.activeIntegrations(context, 'sms');
    const integration = selectIntegration(active, 'sms', job.overrides, this.support.selection(context));
    if (!integration) return this.support.noIntegration(context);

    const phone = stringOf(job.payload.phone) ?? subscriber.phone;
    if (!phone) {
      context.session.insertMessage(
        this.support.recorder.message(context, {
          id: job.id,
          providerId: integration.providerId,
          // As Novu: the message keeps what would have been sent.
          rendered: { content },
          status: 'warning',
          errorText: 'Subscriber does not have active phone',
          errorId: MESSAGE_ERROR_IDS.missingPhone,
        }),
      );
      this.support.recorder.detail(context, 'Failed', DETAIL.SUBSCRIBER_NO_PHONE, { source: 'Credentials', providerId: integration.providerId });
      return { kind: 'skipped', providerId: integration.providerId };
    }

    const suppressed = await skipSuppressed(context, this.support, this.suppressions, integration.providerId, 'phone', phone);
    if (suppressed) return suppressed;

    const target = {
      address: phone,
      fields: { phone },
      build: (id: string, { data }: { data: Record<string, unknown> }) => ({
        id,
        to: phone,
        content,
        ...(stringOf(data.from) ? { from: stringOf(data.from) } : {}),
        ...(Object.keys(objectOf(data.customData)).length ? { customData: objectOf(data.customData) } : {}),
      }),
    };
    return this.delivery.deliver(context, 'sms', [{ chain: failoverChain(integration, active), targets: () => [target] }], { content });
  }
}
