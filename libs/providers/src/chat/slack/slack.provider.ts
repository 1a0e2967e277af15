import { ChatMessage, ProviderCheckResult, ProviderCredentials, ProviderError, ProviderErrorKind, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials } from '../../http/credential-schema';
import { VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { chatFailure, customDataOf, pickOverrides, responseDate, retryAfterOf, subscriberWebhookUrl } from '../chat-http';

export const SLACK_CREDENTIALS = {
  /** A bot token (`xoxb-…`): enables sending to a subscriber's `channel` through chat.postMessage. */
  apiToken: optional.string,
  baseUrl: optional.url,
};

const ORIGIN = 'https://slack.com';

/** Message fields a trigger may set in `overrides` (both modes). */
export const SLACK_OVERRIDE_KEYS = [
  'blocks',
  'attachments',
  'thread_ts',
  'reply_broadcast',
  'mrkdwn',
  'unfurl_links',
  'unfurl_media',
  'username',
  'icon_emoji',
  'icon_url',
  'metadata',
] as const;

/** Incoming-webhook error codes (plain-text bodies) meaning the hook or its channel is gone. */
const HOOK_GONE = new Set([
  'no_service',
  'no_service_id',
  'no_team',
  'team_disabled',
  'invalid_token',
  'channel_not_found',
  'channel_is_archived',
  'user_not_found',
]);
const HOOK_PROHIBITED = new Set(['action_prohibited', 'posting_to_general_channel_denied']);
const HOOK_BAD_PAYLOAD = new Set(['invalid_payload', 'too_many_attachments']);

/** Web API `error` codes by kind. */
const API_ERRORS: Record<string, ProviderErrorKind> = {
  ratelimited: 'rate_limited',
  rate_limited: 'rate_limited',
  invalid_auth: 'auth',
  not_authed: 'auth',
  token_revoked: 'auth',
  token_expired: 'auth',
  account_inactive: 'auth',
  missing_scope: 'auth',
  not_allowed_token_type: 'auth',
  no_permission: 'auth',
  channel_not_found: 'invalid_recipient',
  not_in_channel: 'invalid_recipient',
  is_archived: 'invalid_recipient',
  user_not_found: 'invalid_recipient',
  cannot_dm_bot: 'invalid_recipient',
  internal_error: 'retryable',
  fatal_error: 'retryable',
  service_unavailable: 'retryable',
  request_timeout: 'retryable',
  invalid_arguments: 'invalid_request',
  invalid_blocks: 'invalid_request',
  invalid_blocks_format: 'invalid_request',
  msg_too_long: 'invalid_request',
  no_text: 'invalid_request',
  too_many_attachments: 'invalid_request',
  invalid_json: 'invalid_request',
  json_not_object: 'invalid_request',
};

/**
 * Slack, in two modes:
 * - incoming webhook (default): `POST` the subscriber's `webhookUrl` with `{text, …}`; Slack
 *   answers the text `ok`, or an error code as text with 400/403/404/410 (a gone hook or channel is
 *   invalid_recipient), or 429 with Retry-After. The id is the `x-slack-req-id` header.
 * - bot token: when the integration has `apiToken` and the subscriber entry has `channel` (a
 *   channel id), `POST {baseUrl|https://slack.com}/api/chat.postMessage` with Bearer; Slack answers
 *   HTTP 200 `{ok, error}` (429 with Retry-After when rate limited); the id is the message `ts`.
 * Overrides read: SLACK_OVERRIDE_KEYS (`blocks`, `attachments`, `thread_ts`, …); `customData` is
 * spread into the body last, as Novu does. `check` (bot mode only) calls `POST /api/auth.test`.
 * `service-slack` and `novu-slack` are the same adapter under other ids.
 */
export class SlackProvider implements ProviderAdapter<'chat'> {
  readonly channel = 'chat' as const;
  readonly credentialSchema = SLACK_CREDENTIALS;

  constructor(
    private readonly runtime: ProviderRuntime,
    readonly id: 'slack' | 'service-slack' | 'novu-slack' = 'slack',
  ) {}

  async send(message: ChatMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, SLACK_CREDENTIALS, credentials);
    const fields = { text: message.content, ...pickOverrides(context.overrides, SLACK_OVERRIDE_KEYS) };
    if (config.apiToken && message.channel) {
      return this.postMessage(config.apiToken, config.baseUrl, { channel: message.channel, ...fields, ...customDataOf(message) }, context);
    }
    if (!message.webhookUrl && message.channel) {
      throw new ProviderError(
        'invalid_recipient',
        `The subscriber has a Slack channel but the ${this.id} integration has no apiToken (bot token) to post to it, and no webhookUrl`,
        {
          raw: { missing: 'webhookUrl' },
        },
      );
    }
    const url = subscriberWebhookUrl(this.id, message);
    const response = await this.runtime.http.request({
      url,
      json: { ...fields, ...customDataOf(message) },
      passthrough: context.passthrough,
      signal: context.signal,
    });
    const answer = response.text.trim();
    if (response.status >= 200 && response.status < 300 && (answer === 'ok' || response.json<{ ok?: unknown }>()?.ok === true)) {
      return { id: response.header('x-slack-req-id') ?? message.id, date: responseDate(response), raw: { status: response.status } };
    }
    throw hookFailure(response);
  }

  /** `POST /api/auth.test` with the bot token (bot mode only; webhook mode has no credentials to check). */
  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, SLACK_CREDENTIALS, credentials);
    if (!config.apiToken) return { ok: true };
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, ORIGIN, '/api/auth.test'),
      headers: { authorization: `Bearer ${config.apiToken}` },
      signal,
    });
    const answer = response.json<{ ok?: boolean; error?: string }>();
    if (response.status === 200 && answer?.ok === true) return { ok: true };
    return { ok: false, message: answer?.error ? `Slack refused the token: ${answer.error}` : `Slack answered HTTP ${response.status}` };
  }

  private async postMessage(apiToken: string, baseUrl: string | undefined, body: Record<string, unknown>, context: SendContext): Promise<SendResult> {
    const response = await this.runtime.http.request({
      url: vendorUrl(baseUrl, ORIGIN, '/api/chat.postMessage'),
      // Slack warns about (and may one day refuse) JSON without a charset.
      headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json; charset=utf-8' },
      json: body,
      passthrough: context.passthrough,
      signal: context.signal,
    });
    const answer = response.json<{ ok?: boolean; error?: string; ts?: string; channel?: string }>();
    if (response.status >= 200 && response.status < 300 && answer?.ok === true && answer.ts) {
      return {
        id: answer.ts,
        date: new Date(Math.round(Number(answer.ts) * 1000) || Date.now()).toISOString(),
        raw: { status: response.status, channel: answer.channel },
      };
    }
    throw apiFailure(response, answer?.error);
  }
}

function hookFailure(response: VendorResponse): ProviderError {
  const text = response.text.trim();
  const code = /^[a-z_]+$/.test(text) ? text : response.json<{ error?: string }>()?.error;
  let kind: ProviderErrorKind | undefined;
  if (response.status === 429) kind = 'rate_limited';
  else if (code && HOOK_GONE.has(code)) kind = 'invalid_recipient';
  else if (code && HOOK_PROHIBITED.has(code)) kind = 'permanent';
  else if (code && HOOK_BAD_PAYLOAD.has(code)) kind = 'invalid_request';
  const unexpected = response.status >= 200 && response.status < 300 ? `answered "${text.slice(0, 100)}" instead of ok` : undefined;
  return chatFailure('Slack', response, { message: code ?? unexpected, code, kind, subscriberUrl: true });
}

function apiFailure(response: VendorResponse, code: string | undefined): ProviderError {
  const kind = response.status === 429 ? 'rate_limited' : code ? API_ERRORS[code] : undefined;
  return chatFailure('Slack', response, {
    message: code ?? 'no ts in the answer',
    code,
    kind: kind ?? (response.status >= 200 && response.status < 300 ? 'permanent' : undefined),
    retryAfterMs: kind === 'rate_limited' ? retryAfterOf(response) : undefined,
  });
}
