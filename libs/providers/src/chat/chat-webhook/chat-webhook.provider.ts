import { ChatMessage, ProviderCredentials, ProviderError, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials } from '../../http/credential-schema';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { sendSignedWebhook } from '../../webhooks/signed-webhook.sender';

export const CHAT_WEBHOOK_CREDENTIALS = { secretKey: optional.string };

/**
 * `chat-webhook`: POSTs `{content, webhookUrl, channel, phoneNumber}` to the subscriber's chat
 * endpoint, signed with the integration's optional `secretKey` (as newer Novu).
 */
export class ChatWebhookProvider implements ProviderAdapter<'chat'> {
  readonly id = 'chat-webhook';
  readonly channel = 'chat' as const;
  readonly credentialSchema = CHAT_WEBHOOK_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: ChatMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const { secretKey } = parseCredentials(this.id, CHAT_WEBHOOK_CREDENTIALS, credentials);
    if (!message.webhookUrl) throw new ProviderError('invalid_recipient', 'The subscriber has no chat webhook URL', { raw: { missing: 'webhookUrl' } });
    const body: Record<string, unknown> = { ...(message.customData ?? {}), content: message.content, webhookUrl: message.webhookUrl };
    if (message.channel !== undefined) body.channel = message.channel;
    if (message.phoneNumber !== undefined) body.phoneNumber = message.phoneNumber;
    return sendSignedWebhook(this.runtime, message.webhookUrl, body, secretKey, context);
  }
}
