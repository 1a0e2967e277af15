import { EmailMessage, ProviderCheckResult, ProviderCredentials, ProviderError, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { batchSignal, everyMessageFails, SendOutcome, VendorBatches } from '../../http/vendor-batches';
import { deepMerge, httpFailure, VendorResponse, vendorUrl } from '../../http/vendor-http';
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
/** Messages Postmark takes in one `/email/batch` request. */
const POSTMARK_BATCH = 500;
/** 500 results of about 170 bytes each. */
const BATCH_ANSWER_BYTES = 1024 * 1024;

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

/** One message's request apart from where it goes: a batch sends several such bodies as an array. */
interface PostmarkSend {
  baseUrl?: string;
  token: string;
  body: Record<string, unknown>;
  passthrough: Omit<NonNullable<SendContext['passthrough']>, 'body'>;
  signal: AbortSignal;
  messageId: string;
}

/**
 * Postmark `POST /email` with the server token in `X-Postmark-Server-Token`, PascalCase JSON.
 * TextBody is the text part (not the HTML, as Novu sends it). Our message id and tags go in
 * `Metadata`, echoed in Postmark's webhooks. The id is Postmark's `MessageID`.
 * Override keys: `messageStream` (→ MessageStream, e.g. `broadcast`; default `outbound`).
 * Errors: a 422 carries Postmark's `ErrorCode` (10 bad token → auth, 406 inactive recipient →
 * invalid_recipient, sender signature/account refusals → permanent, 300 → invalid_request).
 *
 * Concurrent deliveries' messages through one server token within a turn of the event loop go in
 * one `POST /email/batch` (up to 500; they need not be alike): Postmark answers one result per
 * message, in order, each with its own `MessageID` or `ErrorCode`, so each message keeps its own id,
 * status and events. A request-level failure (bad token, 429, 5xx) is every message's. A message with
 * attachments goes alone (the batch's 50 MB cap); a message sent alone uses `POST /email`.
 *
 * `check`: `GET /server` with the token — the token names a server.
 */
export class PostmarkProvider implements ProviderAdapter<'email'> {
  readonly id = 'postmark';
  readonly channel = 'email' as const;
  readonly credentialSchema = POSTMARK_CREDENTIALS;

  private readonly batches = new VendorBatches<PostmarkSend>((sends) => this.sendBatch(sends), POSTMARK_BATCH);

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
    const { body: passthroughBody, ...passthrough } = context.passthrough ?? {};
    const json = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
    const send: PostmarkSend = {
      baseUrl: config.baseUrl,
      token: config.apiKey,
      // A batch body is an array, which VendorHttp's passthrough merge leaves alone: merge into the message.
      body: passthroughBody ? deepMerge(json, passthroughBody) : json,
      passthrough,
      signal: context.signal,
      messageId: message.id,
    };
    const group = message.attachments?.length ? `alone:${message.id}` : JSON.stringify([config.baseUrl ?? ORIGIN, config.apiKey, passthrough]);
    return this.batches.send(group, send);
  }

  /** One request: `/email` for a message alone, `/email/batch` for several, each answered by its own result. */
  private async sendBatch(sends: PostmarkSend[]): Promise<SendOutcome[]> {
    const [first] = sends;
    const single = sends.length === 1;
    let response: VendorResponse;
    try {
      response = await this.runtime.http.request({
        url: vendorUrl(first.baseUrl, ORIGIN, single ? '/email' : '/email/batch'),
        headers: { 'x-postmark-server-token': first.token },
        json: single ? first.body : sends.map((send) => send.body),
        passthrough: first.passthrough,
        signal: batchSignal(sends),
        maxResponseBytes: BATCH_ANSWER_BYTES,
      });
    } catch (error) {
      return everyMessageFails(sends.length, error);
    }
    const answer = response.json<PostmarkAnswer | PostmarkAnswer[]>();
    if (response.status !== 200) return everyMessageFails(sends.length, failure(response, Array.isArray(answer) ? undefined : answer));
    if (!single && (!Array.isArray(answer) || answer.length !== sends.length)) {
      const error = new ProviderError('permanent', 'Postmark answered the batch without one result per message', {
        status: 200,
        raw: { body: response.text.slice(0, 2_000) },
      });
      return everyMessageFails(sends.length, error);
    }
    const results = [answer].flat();
    return sends.map((send, index) => {
      const result = results[index] ?? {};
      if ((result.ErrorCode ?? 0) !== 0) return { error: failure(response, result) };
      const submitted = result.SubmittedAt ? Date.parse(result.SubmittedAt) : NaN;
      return {
        result: {
          id: result.MessageID ?? send.messageId,
          date: Number.isNaN(submitted) ? answeredAt(response) : new Date(submitted).toISOString(),
          raw: { status: response.status, message: result.Message, ...(single ? {} : { batch: sends.length }) },
        },
      };
    });
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

/** A refused request, or one message's result in a batch (200, its own ErrorCode: judged as the 422 a single send gets). */
function failure(response: VendorResponse, answer: PostmarkAnswer | undefined): ProviderError {
  const code = answer?.ErrorCode;
  const ofBatch = response.status === 200 && code !== undefined;
  const status = ofBatch ? 422 : response.status;
  const error = httpFailure(ofBatch ? { ...response, status, text: JSON.stringify(answer) } : response, answer?.Message);
  if (code === undefined || code === 0 || status === 429 || status >= 500) return error;
  const options = { status, providerCode: String(code), raw: error.raw };
  if (code === BAD_TOKEN) return new ProviderError('auth', error.message, options);
  if (code === INACTIVE_RECIPIENT) return new ProviderError('invalid_recipient', error.message, options);
  if (code === MAINTENANCE) return new ProviderError('retryable', error.message, options);
  if (ACCOUNT_REFUSALS.has(code)) return new ProviderError('permanent', error.message, options);
  return new ProviderError(error.kind === 'auth' ? 'auth' : 'invalid_request', error.message, options);
}
