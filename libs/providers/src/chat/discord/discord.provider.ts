import { ChatMessage, ProviderCredentials, ProviderError, ProviderErrorKind, SendContext, SendResult } from '@app/delivery';
import { parseCredentials } from '../../http/credential-schema';
import { VendorResponse } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { chatFailure, customDataOf, isoDate, pickOverrides, secondsToMs, subscriberWebhookUrl } from '../chat-http';

export const DISCORD_CREDENTIALS = {};

/** Execute-webhook fields a trigger may set in `overrides`; `thread_id` goes to the query. */
export const DISCORD_OVERRIDE_KEYS = [
  'embeds',
  'username',
  'avatar_url',
  'tts',
  'allowed_mentions',
  'components',
  'flags',
  'thread_name',
  'applied_tags',
] as const;

/** Discord JSON error codes that mean the webhook itself is gone or its token wrong. */
const UNKNOWN_WEBHOOK = 10015;
const INVALID_WEBHOOK_TOKEN = 50027;

/**
 * Discord execute webhook: `POST {webhookUrl}?wait=true` with `{content, embeds?, username?, …}`
 * (so Discord answers the created message: `id`, `timestamp`). A 429 carries `retry_after`
 * (seconds, JSON), which wins over the rounded Retry-After header; an unknown webhook (404, code
 * 10015) or a wrong token (401, 50027) is an invalid recipient. Overrides read:
 * DISCORD_OVERRIDE_KEYS and `thread_id`; `customData` is spread into the body last, as Novu does.
 * No check: the integration has no credentials.
 */
export class DiscordProvider implements ProviderAdapter<'chat'> {
  readonly id = 'discord';
  readonly channel = 'chat' as const;
  readonly credentialSchema = DISCORD_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: ChatMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    parseCredentials(this.id, DISCORD_CREDENTIALS, credentials);
    const url = subscriberWebhookUrl(this.id, message);
    const threadId = context.overrides?.thread_id;
    const response = await this.runtime.http.request({
      url,
      query: { wait: 'true', thread_id: typeof threadId === 'string' || typeof threadId === 'number' ? String(threadId) : undefined },
      json: { content: message.content, ...pickOverrides(context.overrides, DISCORD_OVERRIDE_KEYS), ...customDataOf(message) },
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status >= 200 && response.status < 300) {
      const sent = response.json<{ id?: string; timestamp?: string }>();
      return { id: sent?.id ?? message.id, date: isoDate(sent?.timestamp), raw: { status: response.status } };
    }
    throw failure(response);
  }
}

function failure(response: VendorResponse): ProviderError {
  const answer = response.json<{ message?: string; code?: number; retry_after?: number; global?: boolean; errors?: unknown }>();
  let kind: ProviderErrorKind | undefined;
  if (answer?.code === UNKNOWN_WEBHOOK || answer?.code === INVALID_WEBHOOK_TOKEN) kind = 'invalid_recipient';
  // 403 from a webhook is a missing permission in its channel (50013), not a bad URL
  else if (response.status === 403) kind = 'permanent';
  const detail = answer?.errors ? `${answer.message}: ${JSON.stringify(answer.errors).slice(0, 500)}` : answer?.message;
  return chatFailure('Discord', response, {
    message: detail,
    code: answer?.code,
    kind,
    retryAfterMs: response.status === 429 ? secondsToMs(answer?.retry_after) : undefined,
    subscriberUrl: true,
  });
}
