import { EmailMessage, ProviderCheckResult, ProviderCredentials, ProviderError, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { httpFailure, VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { senderOf } from '../email-fields';

export const SENDGRID_CREDENTIALS = {
  apiKey: required.string,
  from: required.string,
  senderName: required.string,
  ipPoolName: optional.string,
  baseUrl: optional.url,
};

const ORIGIN = 'https://api.sendgrid.com';

/**
 * SendGrid v3 Mail Send (`POST /v3/mail/send`, Bearer key). Answers 202 with no body; the id is
 * the `X-Message-Id` header. Our message id and tags go in `custom_args`, so SendGrid's event
 * webhook can be matched back. A 429 waits until `X-RateLimit-Reset`.
 */
export class SendgridProvider implements ProviderAdapter<'email'> {
  readonly id = 'sendgrid';
  readonly channel = 'email' as const;
  readonly credentialSchema = SENDGRID_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: EmailMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, SENDGRID_CREDENTIALS, credentials);
    const sender = senderOf(message, config, this.id);
    const list = (addresses?: string[]) => (addresses?.length ? addresses.map((email) => ({ email })) : undefined);
    const ipPoolName = (context.overrides?.ipPoolName as string | undefined) ?? config.ipPoolName;
    const body = {
      personalizations: [{ to: list(message.to), cc: list(message.cc), bcc: list(message.bcc) }],
      from: sender.name ? { email: sender.address, name: sender.name } : { email: sender.address },
      ...(message.replyTo ? { reply_to: { email: message.replyTo } } : {}),
      subject: message.subject,
      // SendGrid requires text/plain before text/html.
      content: [...(message.text ? [{ type: 'text/plain', value: message.text }] : []), { type: 'text/html', value: message.html }],
      ...(message.attachments?.length
        ? {
            attachments: message.attachments.map((attachment) => ({
              content: attachment.file.toString('base64'),
              filename: attachment.name,
              type: attachment.mime,
              disposition: attachment.disposition ?? (attachment.cid ? 'inline' : 'attachment'),
              ...(attachment.cid ? { content_id: attachment.cid } : {}),
            })),
          }
        : {}),
      custom_args: { ...message.tags, id: message.id },
      ...(message.headers && Object.keys(message.headers).length ? { headers: message.headers } : {}),
      ...(ipPoolName ? { ip_pool_name: ipPoolName } : {}),
    };
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, ORIGIN, '/v3/mail/send'),
      headers: { authorization: `Bearer ${config.apiKey}` },
      json: stripUndefined(body),
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status !== 202 && response.status !== 200) throw failure(response);
    return { id: response.header('x-message-id') ?? message.id, date: dateOf(response), raw: { status: response.status } };
  }

  /** `GET /v3/scopes`: the key is valid and may send mail. */
  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, SENDGRID_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: vendorUrl(config.baseUrl, ORIGIN, '/v3/scopes'),
      headers: { authorization: `Bearer ${config.apiKey}` },
      signal,
    });
    if (response.status !== 200) return { ok: false, message: errorText(response) ?? `SendGrid answered HTTP ${response.status}` };
    const scopes = response.json<{ scopes?: string[] }>()?.scopes ?? [];
    return scopes.includes('mail.send') ? { ok: true } : { ok: false, message: 'The SendGrid API key lacks the mail.send scope' };
  }
}

function errorText(response: VendorResponse): string | undefined {
  const errors = response.json<{ errors?: { message?: string; field?: string | null }[] }>()?.errors;
  return errors?.map((error) => (error.field ? `${error.field}: ${error.message}` : error.message)).join('; ') || undefined;
}

function failure(response: VendorResponse): ProviderError {
  const error = httpFailure(response, errorText(response));
  if (response.status === 429 && error.retryAfterMs === undefined) {
    const reset = Number(response.header('x-ratelimit-reset'));
    if (Number.isFinite(reset) && reset > 0) {
      return new ProviderError('rate_limited', error.message, { status: 429, raw: error.raw, retryAfterMs: Math.max(0, reset * 1000 - Date.now()) });
    }
  }
  // A 400 about a recipient address will not pass on any retry or any other sender.
  const fields = response.json<{ errors?: { field?: string | null }[] }>()?.errors?.map((e) => e.field ?? '') ?? [];
  if (response.status === 400 && fields.length && fields.every((field) => /^personalizations\.\d+\.(to|cc|bcc)/.test(field))) {
    return new ProviderError('invalid_recipient', error.message, { status: 400, raw: error.raw });
  }
  return error;
}

function dateOf(response: VendorResponse): string {
  const header = response.header('date');
  const at = header ? Date.parse(header) : NaN;
  return new Date(Number.isNaN(at) ? Date.now() : at).toISOString();
}

function stripUndefined<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
