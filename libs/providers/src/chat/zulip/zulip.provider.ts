import { ChatMessage, ProviderCredentials, ProviderError, SendContext, SendResult } from '@app/delivery';
import { parseCredentials } from '../../http/credential-schema';
import { VendorResponse } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { chatFailure, pickOverrides, responseDate, secondsToMs, subscriberWebhookUrl } from '../chat-http';

export const ZULIP_CREDENTIALS = {};

/** Slack-format fields Zulip's Slack-compatible webhook renders, settable in `overrides`. */
export const ZULIP_OVERRIDE_KEYS = ['blocks', 'attachments'] as const;

/** Zulip error codes that mean the hook's bot key or its stream is wrong (both live in the URL). */
const RECIPIENT_CODES = new Set(['INVALID_API_KEY', 'UNAUTHORIZED', 'USER_DEACTIVATED', 'BOT_DEACTIVATED', 'REALM_DEACTIVATED', 'STREAM_DOES_NOT_EXIST']);

/**
 * Zulip's Slack-compatible incoming webhook (`…/api/v1/external/slack_incoming?api_key=…&stream=…`,
 * the bot key and stream are in the subscriber's URL): `POST webhookUrl` with `{text}`. Zulip
 * answers `{result:'success'}` and no message id, so the id is ours. Errors are `{result:'error',
 * code, msg}`; a 429 carries `retry-after` (seconds) in the JSON and the header. Overrides read:
 * ZULIP_OVERRIDE_KEYS. No check: the integration has no credentials.
 */
export class ZulipProvider implements ProviderAdapter<'chat'> {
  readonly id = 'zulip';
  readonly channel = 'chat' as const;
  readonly credentialSchema = ZULIP_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: ChatMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    parseCredentials(this.id, ZULIP_CREDENTIALS, credentials);
    const url = subscriberWebhookUrl(this.id, message);
    const body = { text: message.content, ...pickOverrides(context.overrides, ZULIP_OVERRIDE_KEYS) };
    const response = await this.runtime.http.request({ url, json: body, passthrough: context.passthrough, signal: context.signal });
    const answer = response.json<ZulipAnswer>();
    if (response.status >= 200 && response.status < 300 && answer?.result !== 'error') {
      return { id: message.id, date: responseDate(response), raw: { status: response.status } };
    }
    throw failure(response, answer);
  }
}

interface ZulipAnswer {
  result?: string;
  msg?: string;
  code?: string;
  'retry-after'?: number;
}

function failure(response: VendorResponse, answer: ZulipAnswer | undefined): ProviderError {
  return chatFailure('Zulip', response, {
    message: answer?.msg ?? (response.text.trim().slice(0, 300) || undefined),
    code: answer?.code,
    kind:
      response.status === 429 || answer?.code === 'RATE_LIMIT_HIT'
        ? 'rate_limited'
        : answer?.code && RECIPIENT_CODES.has(answer.code)
          ? 'invalid_recipient'
          : undefined,
    retryAfterMs: secondsToMs(answer?.['retry-after']),
    subscriberUrl: true,
  });
}
