import { ProviderCredentials, PushMessage, SendContext, SendResult } from '@app/delivery';
import { parseCredentials, required } from '../../http/credential-schema';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { sendSignedWebhook } from '../../webhooks/signed-webhook.sender';

export const PUSH_WEBHOOK_CREDENTIALS = { webhookUrl: required.url, secretKey: required.string };

/**
 * `push-webhook`: POSTs `{target, title, content, overrides, payload: {...payload, subscriber, step}}`
 * to the integration's `webhookUrl`, signed with its `secretKey` (both required, as Novu).
 */
export class PushWebhookProvider implements ProviderAdapter<'push'> {
  readonly id = 'push-webhook';
  readonly channel = 'push' as const;
  readonly credentialSchema = PUSH_WEBHOOK_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: PushMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const { webhookUrl, secretKey } = parseCredentials(this.id, PUSH_WEBHOOK_CREDENTIALS, credentials);
    const body: Record<string, unknown> = {
      target: [message.target],
      title: message.title,
      content: message.content,
      overrides: context.overrides ?? {},
      payload: {
        ...message.payload,
        ...(message.subscriber === undefined ? {} : { subscriber: message.subscriber }),
        ...(message.step === undefined ? {} : { step: message.step }),
      },
    };
    return sendSignedWebhook(this.runtime, webhookUrl, body, secretKey, context);
  }
}
