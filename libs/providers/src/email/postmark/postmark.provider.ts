import { EmailMessage, ProviderCheckResult, ProviderCredentials, ProviderError, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { httpFailure, VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { answeredAt, eventTags, formatAddress, senderOf } from '../email-fields';

export const POSTMARK_CREDENTIALS = {
  /** The server token. */
  apiKey: required.string,
  from: required.string,
  senderName: required.string,
  baseUrl: optional.url,
};

const ORIGIN = 'https://api.postmarkapp.com';

/** Postmark's own error codes (the `ErrorCode` of a 422) that say more than the status. */
const BAD_TOKEN = 10;
const MAINTENANCE = 100;
const INACTIVE_RECIPIENT = 406;
/** Sender signature missing or unconfirmed, not allowed to send, account pending or barred. */
const ACCOUNT_REFUSALS = new Set([400, 401, 405, 412, 413]);

interface PostmarkAnswer {
  ErrorCode?: number;
  Message?: string;
  MessageID?: string;
  SubmittedAt?: string;
}

/**
 * Postmark `POST /email` with the server token in `X-Postmark-Server-Token`, PascalCase JSON.
 * TextBody is the text part (not the HTML, as Novu sends it). Our message id and tags go in
 * `Metadata`, echoed in Postmark's webhooks. The id is Postmark's `MessageID`.
 * Override keys: `messageStream` (→ MessageStream, e.g. `broadcast`; default `outbound`).
 * Errors: a 422 carries Postmark's `ErrorCode` (10 bad token → auth, 406 inactive recipient →
 * invalid_recipient, sender signature/account refusals → permanent, 300 → invalid_request).
 *
 * `check`: `GET /server` with the token — the token names a server.
 */
export class PostmarkProvider implements ProviderAdapter<'email'> {
  readonly id = 'postmark';
  readonly channel = 'email' as const;
  readonly credentialSchema = POSTMARK_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: EmailMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, POSTMARK_CREDENTIALS, credentials);
    const sender = senderOf(message, config, this.id);
    const messageStream = context.overrides?.messageStream;
    const list = (addresses?: string[]) => (addresses?.length ? addresses.join(', ') : undefined);
    const body = {
      From: formatAddress(sender.address, sender.name),
      To: list(message.to),
      Cc: list(message.cc),
      Bcc: list(message.bcc),
      Subject: message.subject,
      HtmlBody: message.html,
      TextBody: message.text,
      ReplyTo: message.replyTo,
      Headers: message.headers && Object.keys(message.headers).length ? Object.entries(message.headers).map(([Name, Value]) => ({ Name, Value })) : undefined,
      Attachments: message.attachments?.length
        ? message.attachments.map((attachment) => ({
            Name: attachment.name,
            Content: attachment.file.toString('base64'),
            ContentType: attachment.mime,
            ...(attachment.cid ? { ContentID: `cid:${attachment.cid}` } : {}),
          }))
        : undefined,
      Metadata: eventTags(message),
      MessageStream: typeof messageStream === 'string' ? messageStream : undefined,
    };
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, ORIGIN, '/email'),
      headers: { 'x-postmark-server-token': config.apiKey },
      json: Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)),
      passthrough: context.passthrough,
      signal: context.signal,
    });
    const answer = response.json<PostmarkAnswer>();
    if (response.status !== 200 || (answer?.ErrorCode ?? 0) !== 0) throw failure(response, answer);
    const submitted = answer?.SubmittedAt ? Date.parse(answer.SubmittedAt) : NaN;
    return {
      id: answer?.MessageID ?? message.id,
      date: Number.isNaN(submitted) ? answeredAt(response) : new Date(submitted).toISOString(),
      raw: { status: response.status, message: answer?.Message },
    };
  }

  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, POSTMARK_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: vendorUrl(config.baseUrl, ORIGIN, '/server'),
      headers: { 'x-postmark-server-token': config.apiKey },
      signal,
    });
    if (response.status === 200) return { ok: true };
    return { ok: false, message: response.json<PostmarkAnswer>()?.Message ?? `Postmark answered HTTP ${response.status}` };
  }
}

function failure(response: VendorResponse, answer: PostmarkAnswer | undefined): ProviderError {
  const error = httpFailure(response, answer?.Message);
  const code = answer?.ErrorCode;
  if (code === undefined || code === 0 || response.status === 429 || response.status >= 500) return error;
  const options = { status: response.status, providerCode: String(code), raw: error.raw };
  if (code === BAD_TOKEN) return new ProviderError('auth', error.message, options);
  if (code === INACTIVE_RECIPIENT) return new ProviderError('invalid_recipient', error.message, options);
  if (code === MAINTENANCE) return new ProviderError('retryable', error.message, options);
  if (ACCOUNT_REFUSALS.has(code)) return new ProviderError('permanent', error.message, options);
  return new ProviderError(error.kind === 'auth' ? 'auth' : 'invalid_request', error.message, options);
}
