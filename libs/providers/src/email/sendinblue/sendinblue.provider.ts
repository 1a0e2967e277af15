import { createHash } from 'node:crypto';
import { EmailMessage, ProviderCheckResult, ProviderCredentials, ProviderError, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { httpFailure, VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { answeredAt, eventTags, senderOf } from '../email-fields';

export const SENDINBLUE_CREDENTIALS = {
  apiKey: required.string,
  from: required.string,
  senderName: required.string,
  baseUrl: optional.url,
};

const ORIGIN = 'https://api.brevo.com';

/**
 * Brevo (ex-Sendinblue) transactional email: `POST /v3/smtp/email`, header `api-key`, answered
 * 201 `{messageId}` (the id). Brevo's idempotency lives in the body's `headers.idempotencyKey`
 * and must be a UUID: a name-based UUID of our message id, so retries carry the same key. Our
 * message id and tags go in `X-Mailin-custom` (echoed in Brevo's webhooks) and as `tags`
 * (`name:value`). Inline images go as plain attachments (the API has no content ids). A 429
 * waits `x-sib-ratelimit-reset` seconds; a 400 naming to/cc/bcc is invalid_recipient. Reads no
 * override keys.
 *
 * `check`: `GET /v3/account` — the key reads the account.
 */
export class SendinblueProvider implements ProviderAdapter<'email'> {
  readonly id = 'sendinblue';
  readonly channel = 'email' as const;
  readonly credentialSchema = SENDINBLUE_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: EmailMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, SENDINBLUE_CREDENTIALS, credentials);
    const sender = senderOf(message, config, this.id);
    const list = (addresses?: string[]) => (addresses?.length ? addresses.map((email) => ({ email })) : undefined);
    const tags = Object.entries(eventTags(message));
    const body = {
      sender: sender.name ? { email: sender.address, name: sender.name } : { email: sender.address },
      to: list(message.to),
      cc: list(message.cc),
      bcc: list(message.bcc),
      replyTo: message.replyTo ? { email: message.replyTo } : undefined,
      subject: message.subject,
      htmlContent: message.html,
      textContent: message.text || undefined,
      attachment: message.attachments?.length ? message.attachments.map((a) => ({ name: a.name, content: a.file.toString('base64') })) : undefined,
      headers: {
        ...message.headers,
        'X-Mailin-custom': tags.map(([name, value]) => `${name}:${value}`).join('|'),
        idempotencyKey: nameBasedUuid(context.idempotencyKey),
      },
      tags: tags.map(([name, value]) => `${name}:${value}`),
    };
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, ORIGIN, '/v3/smtp/email'),
      headers: { 'api-key': config.apiKey },
      json: Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)),
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status !== 201 && response.status !== 200) throw failure(response);
    return { id: response.json<{ messageId?: string }>()?.messageId ?? message.id, date: answeredAt(response), raw: { status: response.status } };
  }

  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, SENDINBLUE_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: vendorUrl(config.baseUrl, ORIGIN, '/v3/account'),
      headers: { 'api-key': config.apiKey },
      signal,
    });
    if (response.status === 200) return { ok: true };
    return { ok: false, message: response.json<{ message?: string }>()?.message ?? `Brevo answered HTTP ${response.status}` };
  }
}

function failure(response: VendorResponse): ProviderError {
  const answer = response.json<{ code?: string; message?: string }>();
  const error = httpFailure(response, answer?.message);
  const options = { status: response.status, raw: error.raw, ...(answer?.code ? { providerCode: answer.code } : {}) };
  if (response.status === 429 && error.retryAfterMs === undefined) {
    const reset = Number(response.header('x-sib-ratelimit-reset'));
    if (Number.isFinite(reset) && reset >= 0) return new ProviderError('rate_limited', error.message, { ...options, retryAfterMs: reset * 1000 });
  }
  if (response.status === 400 && / in (to|cc|bcc)\b/i.test(answer?.message ?? '')) return new ProviderError('invalid_recipient', error.message, options);
  return new ProviderError(error.kind, error.message, { ...options, ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}) });
}

/** A UUID (v5 layout) derived from a name: the same message id always gives the same key. */
function nameBasedUuid(name: string): string {
  const hash = createHash('sha1').update(`notify-service/brevo-idempotency/${name}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
