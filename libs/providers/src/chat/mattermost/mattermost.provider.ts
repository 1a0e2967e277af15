import { ChatMessage, ProviderCredentials, ProviderError, ProviderErrorKind, SendContext, SendResult } from '@app/delivery';
import { parseCredentials } from '../../http/credential-schema';
import { VendorResponse } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { chatFailure, pickOverrides, responseDate, subscriberWebhookUrl } from '../chat-http';

export const MATTERMOST_CREDENTIALS = {};

/** Incoming-webhook fields a trigger may set in `overrides`. */
export const MATTERMOST_OVERRIDE_KEYS = ['username', 'icon_url', 'icon_emoji', 'attachments', 'props', 'type', 'priority'] as const;

/** Mattermost error ids meaning the hook, or the channel or user it was asked to post to, does not exist. */
const RECIPIENT_ERRORS: Record<string, ProviderErrorKind> = {
  'web.incoming_webhook.invalid.app_error': 'invalid_recipient',
  'web.incoming_webhook.channel.app_error': 'invalid_recipient',
  'web.incoming_webhook.user.app_error': 'invalid_recipient',
  'web.incoming_webhook.channel_locked.app_error': 'invalid_recipient',
  'web.incoming_webhook.disabled.app_error': 'permanent',
};

/**
 * Mattermost incoming webhook: `POST webhookUrl` with `{text, channel?}` (`channel` from the
 * subscriber entry). Mattermost answers `ok`; the id is the `X-Request-Id` header, the date the
 * `Date` header. Errors are `{id, message}` app errors (an unknown hook is a 400 with
 * `web.incoming_webhook.invalid.app_error`: invalid_recipient). Overrides read:
 * MATTERMOST_OVERRIDE_KEYS. No check: the integration has no credentials.
 */
export class MattermostProvider implements ProviderAdapter<'chat'> {
  readonly id = 'mattermost';
  readonly channel = 'chat' as const;
  readonly credentialSchema = MATTERMOST_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: ChatMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    parseCredentials(this.id, MATTERMOST_CREDENTIALS, credentials);
    const url = subscriberWebhookUrl(this.id, message);
    const body = {
      text: message.content,
      ...(message.channel ? { channel: message.channel } : {}),
      ...pickOverrides(context.overrides, MATTERMOST_OVERRIDE_KEYS),
    };
    const response = await this.runtime.http.request({ url, json: body, passthrough: context.passthrough, signal: context.signal });
    if (response.status >= 200 && response.status < 300) {
      return { id: response.header('x-request-id') ?? message.id, date: responseDate(response), raw: { status: response.status } };
    }
    throw failure(response);
  }
}

function failure(response: VendorResponse): ProviderError {
  const answer = response.json<{ id?: string; message?: string }>();
  const detail = answer?.message ? `${answer.message} (${answer.id})` : response.text.trim().slice(0, 300) || undefined;
  return chatFailure('Mattermost', response, {
    message: detail,
    code: answer?.id,
    kind: answer?.id ? RECIPIENT_ERRORS[answer.id] : undefined,
    subscriberUrl: true,
  });
}
