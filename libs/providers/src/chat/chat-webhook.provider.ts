import { ChannelProvider, ChatMessage, ProviderConfig, ProviderError, SendContext, SendResult } from '@app/delivery';
import { sendSignedWebhook, WebhookSenderOptions } from '../webhooks/signed-webhook.sender';

/**
 * `chat-webhook`: POSTs `{content, webhookUrl, channel, phoneNumber}` to the subscriber's chat
 * endpoint, signed with the integration's optional `secretKey` (as newer Novu).
 */
export class ChatWebhookProvider implements ChannelProvider<'chat'> {
  readonly id = 'chat-webhook';
  readonly channel = 'chat' as const;

  constructor(private readonly options: WebhookSenderOptions) {}

  send(message: ChatMessage, config: ProviderConfig, context: SendContext): Promise<SendResult> {
    if (!message.webhookUrl) {
      return Promise.reject(new ProviderError('invalid_recipient', 'The subscriber has no chat webhook URL', { raw: { missing: 'webhookUrl' } }));
    }
    const body: Record<string, unknown> = { ...(message.customData ?? {}), content: message.content, webhookUrl: message.webhookUrl };
    if (message.channel !== undefined) body.channel = message.channel;
    if (message.phoneNumber !== undefined) body.phoneNumber = message.phoneNumber;
    const secretKey = typeof config.secretKey === 'string' && config.secretKey !== '' ? config.secretKey : undefined;
    return sendSignedWebhook(message.webhookUrl, body, secretKey, context, this.options);
  }
}
