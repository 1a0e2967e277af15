import { EmailMessage, ProviderCheckResult, ProviderCredentials, ProviderError, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { httpFailure, VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { answeredAt, eventTags, formatAddress, senderOf } from '../email-fields';

export const RESEND_CREDENTIALS = {
  apiKey: required.string,
  from: required.string,
  senderName: required.string,
  baseUrl: optional.url,
};

const ORIGIN = 'https://api.resend.com';

/** Resend accepts tag names and values of ASCII letters, digits, `_` and `-` only. */
const TAG_TEXT = /^[A-Za-z0-9_-]{1,256}$/;

interface ResendError {
  statusCode?: number;
  name?: string;
  message?: string;
}

/**
 * Resend `POST /emails`, Bearer key, snake_case JSON, `Idempotency-Key` = our message id (a
 * retried send is not sent twice). Our message id and tags go in `tags` (Resend's webhooks echo
 * them); tags Resend would refuse (characters outside `[A-Za-z0-9_-]`) are left out rather than
 * failing the send. The id is Resend's `id`. Errors carry Resend's `name`: validation errors on
 * to/cc/bcc are invalid_recipient, the 403 "testing emails only to your own address" is
 * permanent, a 409 concurrent idempotent request is retryable. Reads no override keys.
 *
 * `check`: `GET /domains` — passes for a full-access key and for a sending-only key (which
 * Resend refuses there as `restricted_api_key`, proving the key itself is valid).
 */
export class ResendProvider implements ProviderAdapter<'email'> {
  readonly id = 'resend';
  readonly channel = 'email' as const;
  readonly credentialSchema = RESEND_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: EmailMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, RESEND_CREDENTIALS, credentials);
    const sender = senderOf(message, config, this.id);
    const tags = Object.entries(eventTags(message))
      .filter(([name, value]) => TAG_TEXT.test(name) && TAG_TEXT.test(value))
      .map(([name, value]) => ({ name, value }));
    const body = {
      from: formatAddress(sender.address, sender.name),
      to: message.to,
      ...(message.cc?.length ? { cc: message.cc } : {}),
      ...(message.bcc?.length ? { bcc: message.bcc } : {}),
      subject: message.subject,
      html: message.html,
      ...(message.text ? { text: message.text } : {}),
      ...(message.replyTo ? { reply_to: message.replyTo } : {}),
      ...(message.attachments?.length
        ? {
            attachments: message.attachments.map((attachment) => ({
              filename: attachment.name,
              content: attachment.file.toString('base64'),
              content_type: attachment.mime,
              ...(attachment.cid ? { content_id: attachment.cid } : {}),
            })),
          }
        : {}),
      ...(message.headers && Object.keys(message.headers).length ? { headers: message.headers } : {}),
      ...(tags.length ? { tags } : {}),
    };
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, ORIGIN, '/emails'),
      headers: { authorization: `Bearer ${config.apiKey}`, 'idempotency-key': context.idempotencyKey },
      json: body,
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status !== 200) throw failure(response);
    return { id: response.json<{ id?: string }>()?.id ?? message.id, date: answeredAt(response), raw: { status: response.status } };
  }

  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, RESEND_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: vendorUrl(config.baseUrl, ORIGIN, '/domains'),
      headers: { authorization: `Bearer ${config.apiKey}` },
      signal,
    });
    if (response.status === 200) return { ok: true };
    const error = response.json<ResendError>();
    if (error?.name === 'restricted_api_key') return { ok: true };
    return { ok: false, message: error?.message ?? `Resend answered HTTP ${response.status}` };
  }
}

function failure(response: VendorResponse): ProviderError {
  const answer = response.json<ResendError>();
  const error = httpFailure(response, answer?.message);
  const name = answer?.name;
  const options = {
    status: response.status,
    raw: error.raw,
    ...(name ? { providerCode: name } : {}),
    ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
  };
  if (name === 'validation_error' && response.status === 403) return new ProviderError('permanent', error.message, options);
  if (name === 'validation_error' && /`(to|cc|bcc)`/.test(answer?.message ?? '')) return new ProviderError('invalid_recipient', error.message, options);
  if (name === 'concurrent_idempotent_requests') return new ProviderError('retryable', error.message, options);
  return new ProviderError(error.kind, error.message, options);
}
