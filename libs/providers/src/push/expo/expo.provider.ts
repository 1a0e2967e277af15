import { ProviderCredentials, ProviderError, PushMessage, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { batchSignal, everyMessageFails, SendOutcome, VendorBatches } from '../../http/vendor-batches';
import { deepMerge, httpFailure, VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { compact, deadDeviceToken, overrideReader, reclassify, vendorDate } from '../push-fields';

export const EXPO_CREDENTIALS = { apiKey: required.string, baseUrl: optional.url };

const EXPO_ORIGIN = 'https://exp.host';
/** Expo takes at most this many messages a request. */
const EXPO_BATCH = 100;

interface ExpoTicket {
  status?: string;
  id?: string;
  message?: string;
  details?: { error?: string };
}

interface ExpoAnswer {
  data?: ExpoTicket[] | ExpoTicket;
  errors?: { code?: string; message?: string }[];
}

/** One message of a batch, and where its request goes. */
interface ExpoSend {
  url: string;
  apiKey: string;
  message: Record<string, unknown>;
  passthrough: Omit<NonNullable<SendContext['passthrough']>, 'body'>;
  signal: AbortSignal;
  target: string;
}

/**
 * Expo push service: `POST /--/api/v2/push/send` with an array of messages and the access token as
 * Bearer (plain VendorHttp: expo-server-sdk 7 needs Node 22 and retries 429 itself). The sends that
 * concurrent deliveries make through one access token within a turn of the event loop go in one
 * request, up to 100 messages (Expo's batch); each message still gets its own ticket, its own id
 * (the ticket id, the receipt id) or its own failure. A request-level `errors` list fails every
 * message of the request. No check: Expo has no side-effect-free authenticated read.
 *
 * Overrides read: `data` (instead of the trigger payload), `sound`, `badge`, `channelId`,
 * `priority`, `ttl`, `expiration`, `subtitle`, `categoryId`, `mutableContent`.
 */
export class ExpoProvider implements ProviderAdapter<'push'> {
  readonly id = 'expo';
  readonly channel = 'push' as const;
  readonly credentialSchema = EXPO_CREDENTIALS;

  private readonly batches = new VendorBatches<ExpoSend>((sends) => this.sendBatch(sends), EXPO_BATCH);

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: PushMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, EXPO_CREDENTIALS, credentials);
    const read = overrideReader(context.overrides);
    const pushMessage = compact({
      to: message.target,
      title: message.title,
      body: message.content,
      data: read.object('data') ?? message.payload,
      sound: read.string('sound') ?? read.object('sound'),
      badge: read.number('badge'),
      channelId: read.string('channelId'),
      priority: read.string('priority'),
      ttl: read.number('ttl'),
      expiration: read.number('expiration'),
      subtitle: read.string('subtitle'),
      categoryId: read.string('categoryId'),
      mutableContent: read.boolean('mutableContent'),
    });
    const { body: passthroughBody, ...passthrough } = context.passthrough ?? {};
    const send: ExpoSend = {
      url: vendorUrl(config.baseUrl, EXPO_ORIGIN, '/--/api/v2/push/send'),
      apiKey: config.apiKey,
      // The body is an array, which VendorHttp's passthrough merge leaves alone: merge into the message.
      message: passthroughBody ? deepMerge(pushMessage, passthroughBody) : pushMessage,
      passthrough,
      signal: context.signal,
      target: message.target,
    };
    // Messages batch together only where the request would be the same but for its body.
    return this.batches.send(JSON.stringify([send.url, send.apiKey, send.passthrough]), send);
  }

  /** One request for the batch; its failure is each message's (never thrown: the batcher would retry each alone). */
  private async sendBatch(sends: ExpoSend[]): Promise<SendOutcome[]> {
    const [first] = sends;
    let response: VendorResponse;
    try {
      response = await this.runtime.http.request({
        url: first.url,
        headers: { authorization: `Bearer ${first.apiKey}` },
        json: sends.map((send) => send.message),
        passthrough: first.passthrough,
        signal: batchSignal(sends),
      });
    } catch (error) {
      return everyMessageFails(sends.length, error);
    }
    const answer = response.json<ExpoAnswer>();
    if (response.status < 200 || response.status >= 300 || answer?.errors?.length) {
      const error = requestFailure(response, answer);
      return sends.map(() => ({ error }));
    }
    const tickets = Array.isArray(answer?.data) ? answer.data : [answer?.data];
    return sends.map((send, index) => {
      const ticket = tickets[index];
      if (ticket?.status === 'ok' && typeof ticket.id === 'string')
        return { result: { id: ticket.id, date: vendorDate(response), raw: { status: response.status, ticket: ticket.id, batch: sends.length } } };
      return { error: ticketFailure(response, ticket, send.target) };
    });
  }
}

const REQUEST_ERROR_KINDS: Record<string, ProviderError['kind']> = {
  TOO_MANY_REQUESTS: 'rate_limited',
  UNAUTHORIZED: 'auth',
  INTERNAL_SERVER_ERROR: 'retryable',
};

function requestFailure(response: VendorResponse, answer: ExpoAnswer | undefined): ProviderError {
  const errors = answer?.errors ?? [];
  const words = errors.map((error) => [error.code, error.message].filter(Boolean).join(': ')).join('; ');
  const error = httpFailure(response, words || undefined);
  const code = errors[0]?.code;
  const kind = (code && REQUEST_ERROR_KINDS[code]) || (response.status === 200 ? 'permanent' : error.kind);
  return reclassify(error, kind, code);
}

const TICKET_ERROR_KINDS: Record<string, ProviderError['kind']> = {
  MessageRateExceeded: 'rate_limited',
  InvalidCredentials: 'auth',
  MismatchSenderId: 'auth',
  MessageTooBig: 'invalid_request',
};

/** A ticket in error: DeviceNotRegistered is a dead token; the rest by Expo's `details.error`. */
function ticketFailure(response: VendorResponse, ticket: ExpoTicket | undefined, token: string): ProviderError {
  const code = ticket?.details?.error;
  const words = ticket?.message ?? 'Expo answered without a push ticket';
  const raw = { status: response.status, body: response.text.slice(0, 2_000) };
  if (code === 'DeviceNotRegistered') return deadDeviceToken('Expo', token, code, words, { status: response.status, raw });
  return new ProviderError((code && TICKET_ERROR_KINDS[code]) || 'permanent', `Expo refused the push${code ? ` (${code})` : ''}: ${words}`, {
    status: response.status,
    providerCode: code,
    raw,
  });
}
