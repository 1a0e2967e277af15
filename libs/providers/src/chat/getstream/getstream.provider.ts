import { ChatMessage, ProviderCredentials, SendContext, SendResult } from '@app/delivery';
import { parseCredentials, required } from '../../http/credential-schema';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { chatFailure, responseDate, subscriberWebhookUrl } from '../chat-http';

export const GETSTREAM_CREDENTIALS = { apiKey: required.string };

/**
 * GetStream webhook: `POST webhookUrl` with `{text}` and the integration's key in a real
 * `X-API-KEY` header (Novu put it in the body by mistake). The id is the `X-Webhook-Id` header when
 * sent, else ours. A 401/403 is the integration's key (auth); a 404 is the subscriber's URL
 * (invalid_recipient); a 429 waits until `X-RateLimit-Reset`. No overrides read. No check: Stream has no key-only read to call.
 */
export class GetstreamProvider implements ProviderAdapter<'chat'> {
  readonly id = 'getstream';
  readonly channel = 'chat' as const;
  readonly credentialSchema = GETSTREAM_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: ChatMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const { apiKey } = parseCredentials(this.id, GETSTREAM_CREDENTIALS, credentials);
    const url = subscriberWebhookUrl(this.id, message);
    const response = await this.runtime.http.request({
      url,
      headers: { 'x-api-key': apiKey },
      json: { text: message.content },
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status >= 200 && response.status < 300) {
      return { id: response.header('x-webhook-id') ?? message.id, date: responseDate(response), raw: { status: response.status } };
    }
    const answer = response.json<{ message?: string; code?: number }>();
    // Stream's 429 says when the window resets (epoch seconds) instead of a Retry-After.
    const reset = Number(response.header('x-ratelimit-reset'));
    throw chatFailure('GetStream', response, {
      message: answer?.message ?? (response.text.trim().slice(0, 300) || undefined),
      code: answer?.code,
      kind: response.status === 404 ? 'invalid_recipient' : undefined,
      retryAfterMs: response.status === 429 && !response.header('retry-after') && reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : undefined,
    });
  }
}
