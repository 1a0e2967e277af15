import { EmailMessage, ProviderCheckResult, ProviderCredentials, ProviderError, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { basicAuth, httpFailure, VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { answeredAt, eventTags, formatAddress, senderOf } from '../email-fields';

export const MAILGUN_CREDENTIALS = {
  apiKey: required.string,
  domain: required.string,
  from: required.string,
  senderName: required.string,
  /** The Basic auth user; Mailgun's is `api`. */
  user: optional.string,
  /** The API origin: https://api.eu.mailgun.net for EU domains. */
  baseUrl: optional.url,
};

const ORIGIN = 'https://api.mailgun.net';

/**
 * Mailgun Messages API: `POST /v3/{domain}/messages`, multipart/form-data, Basic `api:key`.
 * Attachments are `attachment` file parts, inline images (cid) `inline` parts named by their
 * cid (Mailgun's cid is the file name). Reply-To and custom headers go as `h:` fields, our
 * message id and tags as `v:` variables (echoed in Mailgun's events as user-variables). The id
 * is Mailgun's `<…@domain>` message id. Reads no override keys (vendor options: `_passthrough`,
 * e.g. `{"body": {"o:tag": "digest"}}`).
 *
 * `check`: `GET /v3/domains/{domain}` — the key can read the sending domain and it is active.
 */
export class MailgunProvider implements ProviderAdapter<'email'> {
  readonly id = 'mailgun';
  readonly channel = 'email' as const;
  readonly credentialSchema = MAILGUN_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: EmailMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, MAILGUN_CREDENTIALS, credentials);
    const sender = senderOf(message, config, this.id);
    const form = new FormData();
    form.append('from', formatAddress(sender.address, sender.name));
    for (const kind of ['to', 'cc', 'bcc'] as const) for (const address of message[kind] ?? []) form.append(kind, address);
    form.append('subject', message.subject);
    form.append('html', message.html);
    if (message.text) form.append('text', message.text);
    for (const attachment of message.attachments ?? []) {
      const inline = attachment.cid !== undefined && attachment.disposition !== 'attachment';
      form.append(inline ? 'inline' : 'attachment', new Blob([attachment.file], { type: attachment.mime }), inline ? attachment.cid : attachment.name);
    }
    if (message.replyTo) form.append('h:Reply-To', message.replyTo);
    for (const [name, value] of Object.entries(message.headers ?? {})) form.append(`h:${name}`, value);
    for (const [name, value] of Object.entries(eventTags(message))) form.append(`v:${name}`, value);
    const response = await this.runtime.http.request({
      url: this.url(config, `/v3/${encodeURIComponent(config.domain)}/messages`),
      headers: { authorization: basicAuth(config.user ?? 'api', config.apiKey) },
      multipart: form,
      passthrough: context.passthrough,
      signal: context.signal,
    });
    if (response.status !== 200) throw failure(response);
    const answer = response.json<{ id?: string; message?: string }>();
    return { id: answer?.id ?? message.id, date: answeredAt(response), raw: { status: response.status, message: answer?.message } };
  }

  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, MAILGUN_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: this.url(config, `/v3/domains/${encodeURIComponent(config.domain)}`),
      headers: { authorization: basicAuth(config.user ?? 'api', config.apiKey) },
      signal,
    });
    if (response.status !== 200) return { ok: false, message: errorText(response) ?? `Mailgun answered HTTP ${response.status}` };
    const state = response.json<{ domain?: { state?: string } }>()?.domain?.state;
    return state === undefined || state === 'active' ? { ok: true } : { ok: false, message: `The Mailgun domain ${config.domain} is ${state}` };
  }

  private url(config: { baseUrl?: string }, path: string): string {
    return vendorUrl(config.baseUrl, ORIGIN, path);
  }
}

/** Mailgun answers errors as `{message}` JSON, or a bare text body (`Forbidden`) for a wrong key. */
function errorText(response: VendorResponse): string | undefined {
  const json = response.json<{ message?: unknown }>();
  if (json && typeof json.message === 'string') return json.message;
  const text = response.text.trim();
  return text && text.length < 300 && !text.startsWith('<') ? text : undefined;
}

function failure(response: VendorResponse): ProviderError {
  const text = errorText(response);
  const error = httpFailure(response, text);
  // "'to' parameter is not a valid address": the same address fails on every retry.
  if (response.status === 400 && text && /'(to|cc|bcc)' parameter is not a valid address/i.test(text)) {
    return new ProviderError('invalid_recipient', error.message, { status: 400, raw: error.raw });
  }
  // Mailgun refuses a wrong key with 401; its 403s are account limits (a sandbox domain sending
  // to unauthorized recipients, a disabled domain), which new credentials would not cure.
  if (response.status === 403) return new ProviderError('permanent', error.message, { status: 403, raw: error.raw });
  return error;
}
