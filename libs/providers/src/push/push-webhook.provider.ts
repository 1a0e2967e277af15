import { ChannelProvider, ProviderConfig, PushMessage, SendContext, SendResult } from '@app/delivery';
import { requireString, sendSignedWebhook, WebhookSenderOptions } from '../webhooks/signed-webhook.sender';

/**
 * `push-webhook`: POSTs `{target, title, content, overrides, payload: {...payload, subscriber, step}}`
 * to the integration's `webhookUrl`, signed with its `secretKey` (both required, as Novu).
 */
export class PushWebhookProvider implements ChannelProvider<'push'> {
  readonly id = 'push-webhook';
  readonly channel = 'push' as const;

  constructor(private readonly options: WebhookSenderOptions) {}

  async send(message: PushMessage, config: ProviderConfig, context: SendContext): Promise<SendResult> {
    const webhookUrl = requireString(config, 'webhookUrl', this.id);
    const secretKey = requireString(config, 'secretKey', this.id);
    const body: Record<string, unknown> = {
      target: message.target,
      title: message.title,
      content: message.content,
      overrides: message.overrides ?? {},
      payload: {
        ...message.payload,
        ...(message.subscriber === undefined ? {} : { subscriber: message.subscriber }),
        ...(message.step === undefined ? {} : { step: message.step }),
      },
    };
    return sendSignedWebhook(webhookUrl, body, secretKey, context, this.options);
  }
}
