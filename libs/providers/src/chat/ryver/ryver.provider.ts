import { ChatMessage, ProviderCredentials, SendContext, SendResult } from '@app/delivery';
import { parseCredentials } from '../../http/credential-schema';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { chatFailure, pickOverrides, responseDate, subscriberWebhookUrl } from '../chat-http';

export const RYVER_CREDENTIALS = {};

/** Incoming-webhook fields a trigger may set in `overrides` (`createSource: {avatar, displayName}`). */
export const RYVER_OVERRIDE_KEYS = ['createSource'] as const;

/**
 * Ryver incoming webhook (chat format): `POST webhookUrl` with `{content}`. Ryver returns no
 * message id, so the id is ours. Overrides read: RYVER_OVERRIDE_KEYS. No check: the integration
 * has no credentials.
 */
export class RyverProvider implements ProviderAdapter<'chat'> {
  readonly id = 'ryver';
  readonly channel = 'chat' as const;
  readonly credentialSchema = RYVER_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: ChatMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    parseCredentials(this.id, RYVER_CREDENTIALS, credentials);
    const url = subscriberWebhookUrl(this.id, message);
    const body = { content: message.content, ...pickOverrides(context.overrides, RYVER_OVERRIDE_KEYS) };
    const response = await this.runtime.http.request({ url, json: body, passthrough: context.passthrough, signal: context.signal });
    if (response.status >= 200 && response.status < 300) return { id: message.id, date: responseDate(response), raw: { status: response.status } };
    const answer = response.json<{ error?: { message?: string }; message?: string }>();
    throw chatFailure('Ryver', response, {
      message: answer?.error?.message ?? answer?.message ?? (response.text.trim().slice(0, 300) || undefined),
      subscriberUrl: true,
    });
  }
}
