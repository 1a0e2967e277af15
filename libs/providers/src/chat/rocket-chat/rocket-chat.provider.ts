import { ChatMessage, ProviderCredentials, ProviderError, ProviderErrorKind, SendContext, SendResult } from '@app/delivery';
import { parseCredentials, required } from '../../http/credential-schema';
import { VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { chatFailure, isoDate, pickOverrides, responseDate, subscriberWebhookUrl } from '../chat-http';

export const ROCKET_CHAT_CREDENTIALS = { token: required.string, user: required.string };

/** Message fields a trigger may set in `overrides` (`tmid` answers in a thread). */
export const ROCKET_CHAT_OVERRIDE_KEYS = ['alias', 'emoji', 'avatar', 'attachments', 'tmid', 'blocks'] as const;

/** Rocket.Chat `errorType`s meaning the room cannot take the message. */
const ERROR_TYPES: Record<string, ProviderErrorKind> = {
  'error-invalid-room': 'invalid_recipient',
  'error-room-not-found': 'invalid_recipient',
  'error-room-archived': 'invalid_recipient',
  'error-invalid-channel': 'invalid_recipient',
  'error-not-allowed': 'permanent',
  'error-action-not-allowed': 'permanent',
  'error-too-many-requests': 'rate_limited',
};

/**
 * Rocket.Chat REST: the subscriber's `webhookUrl` is the server's base URL and `channel` the room
 * id. `POST {base}/api/v1/chat.sendMessage` with `X-Auth-Token` / `X-User-Id` (the integration's
 * personal access token and its user id) and `{message: {rid, msg}}`; the answer is `{success,
 * message: {_id, ts}}`. `success:false` carries `error` and `errorType`; 401 is auth; a 429 waits
 * until `X-RateLimit-Reset` (epoch ms) when there is no Retry-After. Overrides read:
 * ROCKET_CHAT_OVERRIDE_KEYS. No check: the server URL is the subscriber's, not the integration's.
 */
export class RocketChatProvider implements ProviderAdapter<'chat'> {
  readonly id = 'rocket-chat';
  readonly channel = 'chat' as const;
  readonly credentialSchema = ROCKET_CHAT_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: ChatMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, ROCKET_CHAT_CREDENTIALS, credentials);
    const base = subscriberWebhookUrl(this.id, message);
    if (!message.channel)
      throw new ProviderError('invalid_recipient', 'The subscriber has no Rocket.Chat room id (credentials.channel)', { raw: { missing: 'channel' } });
    const response = await this.runtime.http.request({
      url: vendorUrl(base, base, '/api/v1/chat.sendMessage'),
      headers: { 'x-auth-token': config.token, 'x-user-id': config.user },
      json: { message: { rid: message.channel, msg: message.content, ...pickOverrides(context.overrides, ROCKET_CHAT_OVERRIDE_KEYS) } },
      passthrough: context.passthrough,
      signal: context.signal,
    });
    const answer = response.json<RocketChatAnswer>();
    const sent = typeof answer?.message === 'object' ? answer.message : undefined;
    if (response.status >= 200 && response.status < 300 && answer?.success !== false && sent?._id) {
      return {
        id: sent._id,
        date: sent.ts ? isoDate(typeof sent.ts === 'object' ? sent.ts.$date : sent.ts) : responseDate(response),
        raw: { status: response.status },
      };
    }
    throw failure(response, answer);
  }
}

interface RocketChatAnswer {
  success?: boolean;
  status?: string;
  /** The sent message, or (with `status: 'error'`) the error text. */
  message?: { _id?: string; ts?: string | { $date?: number } } | string;
  error?: string;
  errorType?: string;
}

function failure(response: VendorResponse, answer: RocketChatAnswer | undefined): ProviderError {
  const text = answer?.error ?? (typeof answer?.message === 'string' ? answer.message : undefined) ?? (response.text.trim().slice(0, 300) || undefined);
  const kind = answer?.errorType ? ERROR_TYPES[answer.errorType] : undefined;
  let retryAfterMs: number | undefined;
  const reset = Number(response.header('x-ratelimit-reset'));
  if ((response.status === 429 || kind === 'rate_limited') && !response.header('retry-after') && Number.isFinite(reset) && reset > 0) {
    retryAfterMs = Math.max(0, reset - Date.now());
  }
  return chatFailure('Rocket.Chat', response, {
    message: text,
    code: answer?.errorType,
    kind: kind ?? (response.status >= 200 && response.status < 300 ? 'permanent' : response.status === 404 ? 'invalid_recipient' : undefined),
    retryAfterMs,
  });
}
