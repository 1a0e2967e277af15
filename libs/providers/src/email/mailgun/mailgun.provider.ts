import { EmailMessage, ProviderCheckResult, ProviderCredentials, ProviderError, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { batchSignal, everyMessageFails, SendOutcome, VendorBatches } from '../../http/vendor-batches';
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
/** Recipients Mailgun takes in one batch send. */
const MAILGUN_BATCH = 1000;

/** A form field: name, value, and the file name of a file part. */
type FormField = [name: string, value: string | Blob, filename?: string];

/** One message's request: its form fields (our id apart), where it goes, and its one `to` when it has one. */
interface MailgunSend {
  url: string;
  authorization: string;
  fields: FormField[];
  /** Our message id and tags, the `v:` variables Mailgun's events echo. */
  variables: Record<string, string>;
  recipient?: string;
  messageId: string;
  passthrough: SendContext['passthrough'];
  signal: AbortSignal;
}

/**
 * Messages that may share a request: one `to`, no cc/bcc, no files, and nothing Mailgun would read
 * as a recipient variable; alike but for that `to` and their variables' values (our id, their tags).
 * Others go alone.
 */
function batchGroup(message: EmailMessage, send: MailgunSend): string {
  const content = [message.subject, message.html, message.text ?? ''].join('\n');
  const alone = !send.recipient || message.cc?.length || message.bcc?.length || message.attachments?.length || content.includes('%recipient');
  if (alone) return `alone:${message.id}`;
  const names = Object.keys(send.variables).sort();
  return JSON.stringify([send.url, send.authorization, send.passthrough ?? null, send.fields.filter(([name]) => name !== 'to'), names]);
}

/**
 * Mailgun Messages API: `POST /v3/{domain}/messages`, multipart/form-data, Basic `api:key`.
 * Attachments are `attachment` file parts, inline images (cid) `inline` parts named by their
 * cid (Mailgun's cid is the file name). Reply-To and custom headers go as `h:` fields, our
 * message id and tags as `v:` variables (echoed in Mailgun's events as user-variables). The id
 * is Mailgun's `<…@domain>` message id.
 *
 * Batches: messages alike but for their one `to`, sent by concurrent deliveries within a turn of the
 * event loop, go in one request (up to 1,000 recipients) with `recipient-variables`, so Mailgun
 * sends each recipient its own message. Mailgun answers one id for the request, which each message
 * keeps; each message's own id is `v:id` (our message id through `%recipient.id%`; its tags likewise), which Mailgun's
 * events echo in `user-variables`, so events and status stay per message. A 400 of a batch sends
 * each message again alone, so only a bad one fails; a 429 or 5xx is every message's. Reads no override keys (vendor options: `_passthrough`,
 * e.g. `{"body": {"o:tag": "digest"}}`).
 *
 * `check`: `GET /v3/domains/{domain}` — the key can read the sending domain and it is active.
 */
export class MailgunProvider implements ProviderAdapter<'email'> {
  readonly id = 'mailgun';
  readonly channel = 'email' as const;
  readonly credentialSchema = MAILGUN_CREDENTIALS;

  private readonly batches = new VendorBatches<MailgunSend>((sends) => this.sendBatch(sends), MAILGUN_BATCH);

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: EmailMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, MAILGUN_CREDENTIALS, credentials);
    const sender = senderOf(message, config, this.id);
    const fields: FormField[] = [['from', formatAddress(sender.address, sender.name)]];
    for (const kind of ['to', 'cc', 'bcc'] as const) for (const address of message[kind] ?? []) fields.push([kind, address]);
    fields.push(['subject', message.subject], ['html', message.html]);
    if (message.text) fields.push(['text', message.text]);
    for (const attachment of message.attachments ?? []) {
      const inline = attachment.cid !== undefined && attachment.disposition !== 'attachment';
      fields.push([inline ? 'inline' : 'attachment', new Blob([attachment.file], { type: attachment.mime }), inline ? attachment.cid : attachment.name]);
    }
    if (message.replyTo) fields.push(['h:Reply-To', message.replyTo]);
    for (const [name, value] of Object.entries(message.headers ?? {})) fields.push([`h:${name}`, value]);
    const send: MailgunSend = {
      url: this.url(config, `/v3/${encodeURIComponent(config.domain)}/messages`),
      authorization: basicAuth(config.user ?? 'api', config.apiKey),
      fields,
      variables: eventTags(message),
      recipient: message.to.length === 1 ? message.to[0] : undefined,
      messageId: message.id,
      passthrough: context.passthrough,
      signal: context.signal,
    };
    return this.batches.send(batchGroup(message, send), send);
  }

  /**
   * One request for the batch. Several messages go as one form: a `to` each, `recipient-variables`
   * giving each address its message's variables, and `v:id` = `%recipient.id%` (so each tag), so
   * Mailgun sends each its own message carrying its own id (echoed in its events' user-variables). An address met twice goes in
   * another request, as recipient variables are keyed by address.
   */
  private async sendBatch(sends: MailgunSend[]): Promise<SendOutcome[]> {
    const rounds: { sends: MailgunSend[]; addresses: Set<string> }[] = [];
    for (const send of sends) {
      const address = (send.recipient ?? '').toLowerCase();
      let round = rounds.find((candidate) => !candidate.addresses.has(address));
      if (!round) rounds.push((round = { sends: [], addresses: new Set() }));
      round.sends.push(send);
      round.addresses.add(address);
    }
    const outcomes = new Map<MailgunSend, SendOutcome>();
    await Promise.all(
      rounds.map(async (round) => {
        const answers = await this.sendRound(round.sends);
        round.sends.forEach((send, index) => outcomes.set(send, answers[index]));
      }),
    );
    return sends.map((send) => outcomes.get(send)!);
  }

  private async sendRound(sends: MailgunSend[]): Promise<SendOutcome[]> {
    const [first] = sends;
    const form = new FormData();
    for (const [name, value, filename] of first.fields) {
      if (name === 'to' && sends.length > 1) continue;
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, value, filename);
    }
    if (sends.length === 1) for (const [name, value] of Object.entries(first.variables)) form.append(`v:${name}`, value);
    else {
      // Each message's variables (our id, its tags) reach its own copy through the recipient variables.
      for (const send of sends) form.append('to', send.recipient!);
      for (const name of Object.keys(first.variables)) form.append(`v:${name}`, `%recipient.${name}%`);
      form.append('recipient-variables', JSON.stringify(Object.fromEntries(sends.map((send) => [send.recipient, send.variables]))));
    }
    let response: VendorResponse;
    try {
      response = await this.runtime.http.request({
        url: first.url,
        headers: { authorization: first.authorization },
        multipart: form,
        passthrough: first.passthrough,
        signal: batchSignal(sends),
      });
    } catch (error) {
      return everyMessageFails(sends.length, error);
    }
    if (response.status !== 200) {
      const error = failure(response);
      // One bad address refuses the whole form: send each again alone so only that one fails.
      if (sends.length > 1 && response.status === 400) return (await Promise.all(sends.map((send) => this.sendRound([send])))).flat();
      return everyMessageFails(sends.length, error);
    }
    const answer = response.json<{ id?: string; message?: string }>();
    const date = answeredAt(response);
    return sends.map((send) => ({
      result: {
        id: answer?.id ?? send.messageId,
        date,
        raw: { status: response.status, message: answer?.message, ...(sends.length > 1 ? { batch: sends.length } : {}) },
      },
    }));
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
