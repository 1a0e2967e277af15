import { EmailMessage, ProviderCheckResult, ProviderCredentials, ProviderError, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { basicAuth, VendorResponse, vendorUrl } from '../../http/vendor-http';
import { classifyHttpFailure } from '../../network/failure-classification';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { answeredAt, eventTags, senderOf } from '../email-fields';

export const MAILJET_CREDENTIALS = {
  apiKey: required.string,
  /** The API secret key. */
  secretKey: required.string,
  from: required.string,
  senderName: required.string,
  baseUrl: optional.url,
};

const ORIGIN = 'https://api.mailjet.com';

interface MailjetError {
  ErrorCode?: string;
  ErrorMessage?: string;
  ErrorRelatedTo?: string[];
  StatusCode?: number;
}

interface MailjetAnswer {
  Messages?: { Status?: string; Errors?: MailjetError[] }[];
  ErrorMessage?: string;
}

/**
 * Mailjet Send API v3.1: `POST /v3.1/send`, Basic `apiKey:secretKey`, one message in
 * `Messages`. Inline images (cid) go in `InlinedAttachments`. `CustomID` is our message id and
 * `EventPayload` our tags (both echoed in Mailjet's events). The answer holds a per-message
 * `Status`; an `error` one fails the send whatever the HTTP status (errors on To/Cc/Bcc are
 * invalid_recipient, a 403 unauthorized sender permanent). The id is the first recipient's `MessageID`, read from the text since it
 * exceeds JavaScript's safe integers. Reads no override keys.
 *
 * `check`: `GET /v3/REST/sender?Limit=1` — the key pair reads the account's senders.
 */
export class MailjetProvider implements ProviderAdapter<'email'> {
  readonly id = 'mailjet';
  readonly channel = 'email' as const;
  readonly credentialSchema = MAILJET_CREDENTIALS;

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: EmailMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, MAILJET_CREDENTIALS, credentials);
    const sender = senderOf(message, config, this.id);
    const list = (addresses?: string[]) => (addresses?.length ? addresses.map((Email) => ({ Email })) : undefined);
    const attachments = message.attachments ?? [];
    const part = (attachment: (typeof attachments)[number]) => ({
      ContentType: attachment.mime,
      Filename: attachment.name,
      Base64Content: attachment.file.toString('base64'),
    });
    const inlined = attachments.filter((attachment) => attachment.cid && attachment.disposition !== 'attachment');
    const attached = attachments.filter((attachment) => !inlined.includes(attachment));
    const entry = {
      From: sender.name ? { Email: sender.address, Name: sender.name } : { Email: sender.address },
      To: list(message.to),
      Cc: list(message.cc),
      Bcc: list(message.bcc),
      ReplyTo: message.replyTo ? { Email: message.replyTo } : undefined,
      Subject: message.subject,
      TextPart: message.text || undefined,
      HTMLPart: message.html,
      Attachments: attached.length ? attached.map(part) : undefined,
      InlinedAttachments: inlined.length ? inlined.map((attachment) => ({ ...part(attachment), ContentID: attachment.cid })) : undefined,
      Headers: message.headers && Object.keys(message.headers).length ? message.headers : undefined,
      CustomID: message.id,
      EventPayload: JSON.stringify(eventTags(message)),
    };
    const response = await this.runtime.http.request({
      url: vendorUrl(config.baseUrl, ORIGIN, '/v3.1/send'),
      headers: { authorization: basicAuth(config.apiKey, config.secretKey) },
      json: { Messages: [Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined))] },
      passthrough: context.passthrough,
      signal: context.signal,
    });
    const answer = response.json<MailjetAnswer>();
    const result = answer?.Messages?.[0];
    if (response.status !== 200 || result?.Status !== 'success') throw failure(response, answer);
    return { id: /"MessageID"\s*:\s*"?(\d+)/.exec(response.text)?.[1] ?? message.id, date: answeredAt(response), raw: { status: response.status } };
  }

  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, MAILJET_CREDENTIALS, credentials);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: vendorUrl(config.baseUrl, ORIGIN, '/v3/REST/sender'),
      query: { Limit: '1' },
      headers: { authorization: basicAuth(config.apiKey, config.secretKey) },
      signal,
    });
    if (response.status === 200) return { ok: true };
    const answer = response.json<{ ErrorMessage?: string }>();
    return { ok: false, message: answer?.ErrorMessage ?? `Mailjet refused the API key and secret (HTTP ${response.status})` };
  }
}

function failure(response: VendorResponse, answer: MailjetAnswer | undefined): ProviderError {
  const errors = answer?.Messages?.flatMap((entry) => entry.Errors ?? []) ?? [];
  const text =
    errors
      .map((error) => error.ErrorMessage)
      .filter(Boolean)
      .join('; ') || answer?.ErrorMessage;
  // A 200 whose message failed is classified by the message's own status code.
  const status = response.status === 200 ? (errors[0]?.StatusCode ?? 400) : response.status;
  const classified = classifyHttpFailure(status, response.headers, response.text.slice(0, 2_000));
  const base = {
    kind: classified.kind,
    message: text ? `${classified.message}: ${text}` : classified.message,
    raw: classified.raw,
    retryAfterMs: classified.retryAfterMs,
  };
  const options = {
    status,
    raw: base.raw,
    ...(errors[0]?.ErrorCode ? { providerCode: errors[0].ErrorCode } : {}),
    ...(base.retryAfterMs !== undefined ? { retryAfterMs: base.retryAfterMs } : {}),
  };
  const related = errors.flatMap((error) => error.ErrorRelatedTo ?? []);
  // Mailjet refuses a wrong key pair with 401; a 403 is a sender the account may not use.
  if (status === 403) return new ProviderError('permanent', base.message, options);
  if (base.kind === 'invalid_request' && related.length && related.every((field) => /^(To|Cc|Bcc)\b/.test(field))) {
    return new ProviderError('invalid_recipient', base.message, options);
  }
  return new ProviderError(base.kind, base.message, options);
}
