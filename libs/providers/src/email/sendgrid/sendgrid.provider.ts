import { EmailMessage, ProviderCheckResult, ProviderCredentials, ProviderError, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { batchSignal, everyMessageFails, SendOutcome, VendorBatches } from '../../http/vendor-batches';
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
/** Personalizations SendGrid takes in one request. */
const SENDGRID_BATCH = 1000;

/** One message's request: its personalization apart from what a batch shares. */
interface SendgridSend {
  url: string;
  apiKey: string;
  body: Record<string, unknown> & { personalizations: Record<string, unknown>[]; custom_args: Record<string, string> };
  passthrough: SendContext['passthrough'];
  signal: AbortSignal;
  messageId: string;
}

/**
 * SendGrid v3 Mail Send (`POST /v3/mail/send`, Bearer key). Answers 202 with no body; the id is
 * the `X-Message-Id` header. Our message id and tags go in `custom_args`, so SendGrid's event
 * webhook can be matched back. A 429 waits until `X-RateLimit-Reset`.
 *
 * Messages the same but for their recipients (a topic's email rendered alike for each subscriber),
 * sent by concurrent deliveries within a turn of the event loop, go in one request: one
 * personalization each (up to 1,000), each with its own `custom_args` (our message id), so each
 * message keeps its own events and status; SendGrid gives the request one X-Message-Id, which each
 * message keeps (its events' `sg_message_id` starts with it). A 400 about the batch sends each message
 * again alone, so only a bad one fails; a 429 or 5xx is every message's.
 */
export class SendgridProvider implements ProviderAdapter<'email'> {
  readonly id = 'sendgrid';
  readonly channel = 'email' as const;
  readonly credentialSchema = SENDGRID_CREDENTIALS;

  private readonly batches = new VendorBatches<SendgridSend>((sends) => this.sendBatch(sends), SENDGRID_BATCH);

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
    const send: SendgridSend = {
      url: vendorUrl(config.baseUrl, ORIGIN, '/v3/mail/send'),
      apiKey: config.apiKey,
      body: stripUndefined(body),
      passthrough: context.passthrough,
      signal: context.signal,
      messageId: message.id,
    };
    // Attachments are not worth comparing: such a message goes alone.
    const { personalizations: _recipients, custom_args: _args, ...shared } = send.body;
    const group = message.attachments?.length ? `alone:${message.id}` : JSON.stringify([send.url, send.apiKey, send.passthrough ?? null, shared]);
    return this.batches.send(group, send);
  }

  /** One request for the batch; a 400 of a batch throws, so the batcher sends each message alone. */
  private async sendBatch(sends: SendgridSend[]): Promise<SendOutcome[]> {
    const [first] = sends;
    const body =
      sends.length === 1
        ? first.body
        : {
            ...first.body,
            personalizations: sends.map((send) => ({ ...send.body.personalizations[0], custom_args: send.body.custom_args })),
            custom_args: undefined,
          };
    let response: VendorResponse;
    try {
      response = await this.runtime.http.request({
        url: first.url,
        headers: { authorization: `Bearer ${first.apiKey}` },
        json: stripUndefined(body),
        passthrough: first.passthrough,
        signal: batchSignal(sends),
      });
    } catch (error) {
      return everyMessageFails(sends.length, error);
    }
    if (response.status === 202 || response.status === 200) {
      const date = dateOf(response);
      return sends.map((send) => ({
        result: {
          id: response.header('x-message-id') ?? send.messageId,
          date,
          raw: { status: response.status, ...(sends.length > 1 ? { batch: sends.length } : {}) },
        },
      }));
    }
    const error = failure(response);
    if (sends.length > 1 && response.status === 400) throw error;
    return sends.map(() => ({ error }));
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
