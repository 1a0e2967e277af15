import { Injectable } from '@nestjs/common';
import { Integration } from '@app/integrations';
import { SubscriberChannel } from '@app/subscribers';
import { DETAIL } from '../../../domain/execution-detail';
import { failoverChain, requestedIntegrationIdentifier, selectCredentialIntegrations } from '../../../domain/select-integration';
import { ChatMessage } from '../../../ports/channel-provider.port';
import { StepContext } from '../step-context';
import { StepOutcome } from '../step-outcome';
import { ChannelSupport, objectOf, stringOf } from './channel-support';
import { DeliveryTarget, ProviderDelivery } from './provider-delivery';

/** Chat providers that address the subscriber's phone rather than a stored endpoint. */
const PHONE_ADDRESSED = new Set(['whatsapp-business']);

/**
 * Chat: every credential entry the subscriber holds for a selected integration (a webhook URL, or
 * a channel for bot-token Slack and Rocket.Chat), or the subscriber's phone for WhatsApp; each
 * delivery fails over to its integration's fallbacks.
 */
@Injectable()
export class ChatSender {
  constructor(
    private readonly support: ChannelSupport,
    private readonly delivery: ProviderDelivery,
  ) {}

  async execute(context: StepContext): Promise<StepOutcome> {
    const { job } = context;
    const content = this.support.render(context, stringOf(context.step.template.content)) ?? '';
    const active = await this.support.activeIntegrations(context, 'chat');
    const requested = requestedIntegrationIdentifier(job.overrides, 'chat');
    if (!active.length || (requested && !active.some((integration) => integration.identifier === requested))) return this.support.noIntegration(context);

    const targets = (integration: Integration) => this.targets(context, integration, content);
    const selected = selectCredentialIntegrations(
      active,
      'chat',
      job.overrides,
      this.support.selection(context),
      (integration) => targets(integration).length > 0,
    );
    if (!selected.length) return this.support.noChannel(context, DETAIL.SUBSCRIBER_NO_CHANNEL);
    return this.delivery.deliver(
      context,
      'chat',
      selected.map((integration) => ({ chain: failoverChain(integration, active), targets })),
      { content },
    );
  }

  private targets(context: StepContext, integration: Integration, content: string): DeliveryTarget<'chat'>[] {
    const { subscriber } = context;
    const build =
      (entry: SubscriberChannel | undefined) =>
      (id: string, { data }: { data: Record<string, unknown> }): ChatMessage => {
        const { webhookUrl, channel, deviceTokens: _tokens, ...recipient } = entry?.credentials ?? {};
        return {
          id,
          content,
          ...(webhookUrl ? { webhookUrl } : {}),
          ...(channel ? { channel } : {}),
          ...(subscriber.phone ? { phoneNumber: subscriber.phone } : {}),
          ...(Object.keys(recipient).length ? { recipient } : {}),
          ...(Object.keys(objectOf(data.customData)).length ? { customData: objectOf(data.customData) } : {}),
        };
      };
    if (PHONE_ADDRESSED.has(integration.providerId)) {
      if (!subscriber.phone) return [];
      const entry = subscriber.channels.find((candidate) => candidate.integrationId === integration.id);
      return [{ address: subscriber.phone, fields: { phone: subscriber.phone }, build: build(entry) }];
    }
    return subscriber.channels
      .filter((entry) => entry.integrationId === integration.id && (entry.credentials.webhookUrl || entry.credentials.channel))
      .map((entry) => {
        const webhookUrl = entry.credentials.webhookUrl;
        return {
          address: webhookUrl ?? entry.credentials.channel!,
          fields: webhookUrl ? { directWebhookUrl: webhookUrl } : {},
          secrets: webhookUrl ? [webhookUrl] : [],
          build: build(entry),
        };
      });
  }
}
