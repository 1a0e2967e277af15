import { ProviderCheckResult, ProviderCredentials, ProviderError, PushMessage, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, ParsedCredentials, required } from '../../http/credential-schema';
import { batchSignal, everyMessageFails, SendOutcome, VendorBatches } from '../../http/vendor-batches';
import { httpFailure, VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { compact, deadDeviceToken, deliveryUuid, overrideReader, vendorDate } from '../push-fields';

export const ONE_SIGNAL_CREDENTIALS = {
  /** The OneSignal app id. */
  applicationId: required.string,
  /** The app's REST API key. */
  apiKey: required.string,
  /** `externalId`: the current API, tokens are External IDs; absent or `playerModel`: player ids (legacy, as Novu). */
  apiVersion: optional.string,
  baseUrl: optional.url,
};

type OneSignalConfig = ParsedCredentials<typeof ONE_SIGNAL_CREDENTIALS>;

/** Devices OneSignal takes in one notification (`include_player_ids`, `include_aliases`). */
const ONE_SIGNAL_BATCH = 2000;

/** One device's notification: the body but for its target, and the request it goes in. */
interface OneSignalSend {
  api: Api;
  body: Record<string, unknown>;
  target: string;
  idempotencyKey: string;
  passthrough: SendContext['passthrough'];
  signal: AbortSignal;
}

interface Api {
  url: (path: string) => string;
  authorization: string;
  target: (tokens: string[]) => Record<string, unknown>;
}

/** The two OneSignal APIs Novu targets: legacy player ids, or the current API addressed by External ID. */
function apiOf(config: OneSignalConfig): Api {
  if (config.apiVersion === 'externalId') {
    return {
      url: (path) => vendorUrl(config.baseUrl, 'https://api.onesignal.com', path),
      authorization: `Key ${config.apiKey}`,
      target: (tokens) => ({ include_aliases: { external_id: tokens }, target_channel: 'push' }),
    };
  }
  if (config.apiVersion === undefined || config.apiVersion === 'playerModel') {
    return {
      url: (path) => vendorUrl(config.baseUrl, 'https://onesignal.com', `/api/v1${path}`),
      authorization: `Basic ${config.apiKey}`,
      target: (tokens) => ({ include_player_ids: tokens }),
    };
  }
  throw new ProviderError('invalid_request', 'The one-signal integration credentials.apiVersion must be externalId or playerModel', {
    raw: { invalid: ['apiVersion'] },
  });
}

/**
 * OneSignal `POST /notifications` with an idempotency key derived from our message id. A 200 may
 * still mean "not sent": an empty `id` with `errors`; the device is dead when `errors` lists it
 * (`invalid_player_ids`, `invalid_aliases`, `invalid_external_user_ids`).
 *
 * Batches: notifications alike but for their device, sent by concurrent deliveries within a turn of
 * the event loop, go as one notification to up to 2,000 devices (its idempotency key derived from
 * every message's). Each message keeps OneSignal's notification id as its own vendor id; a device
 * the answer lists as invalid fails alone (a dead token); the others are sent. OneSignal answers no
 * per-device status beyond that list: a device it skips as unsubscribed, among others that are
 * reached, is not named, so its message reads sent (a notification no device took fails them all).
 *
 * Overrides read (Novu's): `data` (instead of the trigger payload), `subtitle`, `sound` (iOS and
 * Android), `badge` (sets the iOS badge; Novu's increment-by-one otherwise), `mutableContent`,
 * `channelId` (Android channel), `icon` (small/large/Chrome/Firefox), `categoryId` (iOS category).
 */
export class OneSignalProvider implements ProviderAdapter<'push'> {
  readonly id = 'one-signal';
  readonly channel = 'push' as const;
  readonly credentialSchema = ONE_SIGNAL_CREDENTIALS;

  private readonly batches = new VendorBatches<OneSignalSend>((sends) => this.sendBatch(sends), ONE_SIGNAL_BATCH);

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: PushMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, ONE_SIGNAL_CREDENTIALS, credentials);
    const api = apiOf(config);
    const read = overrideReader(context.overrides);
    const badge = read.number('badge');
    const sound = read.string('sound');
    const icon = read.string('icon');
    const subtitle = read.string('subtitle');
    const body = compact({
      app_id: config.applicationId,
      headings: message.title ? { en: message.title } : undefined,
      contents: { en: message.content },
      subtitle: subtitle ? { en: subtitle } : undefined,
      data: read.object('data') ?? message.payload,
      ios_badgeType: badge === undefined ? 'Increase' : 'SetTo',
      ios_badgeCount: badge ?? 1,
      ios_sound: sound,
      android_sound: sound,
      mutable_content: read.boolean('mutableContent'),
      android_channel_id: read.string('channelId'),
      small_icon: icon,
      large_icon: icon,
      chrome_icon: icon,
      firefox_icon: icon,
      ios_category: read.string('categoryId'),
    });
    const send: OneSignalSend = {
      api,
      body,
      target: message.target,
      idempotencyKey: context.idempotencyKey,
      passthrough: context.passthrough,
      signal: context.signal,
    };
    return this.batches.send(JSON.stringify([api.url('/notifications'), api.authorization, context.passthrough ?? null, body]), send);
  }

  /** One notification to every device of the batch; each message is answered by whether the answer names its device. */
  private async sendBatch(sends: OneSignalSend[]): Promise<SendOutcome[]> {
    const [first] = sends;
    const single = sends.length === 1;
    const targets = sends.map((send) => send.target);
    const idempotency = single ? deliveryUuid(first.idempotencyKey, first.target) : deliveryUuid(sends.map((send) => send.idempotencyKey).join('\n'), 'batch');
    let response: VendorResponse;
    try {
      response = await this.runtime.http.request({
        url: first.api.url('/notifications'),
        headers: { authorization: first.api.authorization },
        json: { ...first.body, ...first.api.target(targets), idempotency_key: idempotency },
        passthrough: first.passthrough,
        signal: batchSignal(sends),
      });
    } catch (error) {
      return everyMessageFails(sends.length, error);
    }
    const answer = response.json<{ id?: unknown; errors?: unknown }>();
    const refused = sends.map((send) => refusedTargetField(answer?.errors, send.target));
    const outcomes = sends.map((send, index): SendOutcome | undefined =>
      refused[index]
        ? { error: deadDeviceToken('OneSignal', send.target, refused[index], errorText(answer?.errors)!, { status: response.status, raw: excerpt(response) }) }
        : undefined,
    );
    let failure: ProviderError | undefined;
    if (response.status < 200 || response.status >= 300) failure = httpFailure(response, errorText(answer?.errors));
    else if (typeof answer?.id !== 'string' || answer.id === '') {
      failure = new ProviderError('permanent', `OneSignal did not send the notification: ${errorText(answer?.errors) ?? 'no id in the answer'}`, {
        status: response.status,
        raw: excerpt(response),
      });
    }
    const id = answer?.id as string;
    const date = vendorDate(response);
    return outcomes.map(
      (outcome) =>
        outcome ?? (failure ? { error: failure } : { result: { id, date, raw: { status: response.status, id, ...(single ? {} : { batch: sends.length }) } } }),
    );
  }

  /** `GET /notifications?app_id=…&limit=1`: a read the REST key may make (viewing the app itself needs the organization key). */
  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, ONE_SIGNAL_CREDENTIALS, credentials);
    const api = apiOf(config);
    const response = await this.runtime.http.request({
      method: 'GET',
      url: api.url('/notifications'),
      query: { app_id: config.applicationId, limit: '1' },
      headers: { authorization: api.authorization },
      signal,
    });
    if (response.status === 200) return { ok: true };
    return { ok: false, message: errorText(response.json<{ errors?: unknown }>()?.errors) ?? `OneSignal answered HTTP ${response.status}` };
  }
}

/** The field of OneSignal's `errors` that lists `token` as unknown (its shapes vary), if any. */
function refusedTargetField(errors: unknown, token: string): string | undefined {
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return undefined;
  return ['invalid_player_ids', 'invalid_external_user_ids', 'invalid_aliases'].find((field) => {
    const value = (errors as Record<string, unknown>)[field];
    const ids: unknown[] = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value).flat() : [];
    return ids.includes(token);
  });
}

function errorText(errors: unknown): string | undefined {
  if (Array.isArray(errors)) return errors.map(String).join('; ') || undefined;
  if (errors && typeof errors === 'object') return JSON.stringify(errors);
  return undefined;
}

function excerpt(response: VendorResponse) {
  return { status: response.status, body: response.text.slice(0, 2_000) };
}
