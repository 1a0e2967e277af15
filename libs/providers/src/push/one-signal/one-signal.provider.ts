import { ProviderCheckResult, ProviderCredentials, ProviderError, PushMessage, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, ParsedCredentials, required } from '../../http/credential-schema';
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

interface Api {
  url: (path: string) => string;
  authorization: string;
  target: (token: string) => Record<string, unknown>;
}

/** The two OneSignal APIs Novu targets: legacy player ids, or the current API addressed by External ID. */
function apiOf(config: OneSignalConfig): Api {
  if (config.apiVersion === 'externalId') {
    return {
      url: (path) => vendorUrl(config.baseUrl, 'https://api.onesignal.com', path),
      authorization: `Key ${config.apiKey}`,
      target: (token) => ({ include_aliases: { external_id: [token] }, target_channel: 'push' }),
    };
  }
  if (config.apiVersion === undefined || config.apiVersion === 'playerModel') {
    return {
      url: (path) => vendorUrl(config.baseUrl, 'https://onesignal.com', `/api/v1${path}`),
      authorization: `Basic ${config.apiKey}`,
      target: (token) => ({ include_player_ids: [token] }),
    };
  }
  throw new ProviderError('invalid_request', 'The one-signal integration credentials.apiVersion must be externalId or playerModel', {
    raw: { invalid: ['apiVersion'] },
  });
}

/**
 * OneSignal `POST /notifications`, one device per call, with an idempotency key derived from our
 * message id. A 200 may still mean "not sent": an empty `id` with `errors`; the device is dead when
 * `errors` lists it (`invalid_player_ids`, `invalid_aliases`, `invalid_external_user_ids`).
 *
 * Overrides read (Novu's): `data` (instead of the trigger payload), `subtitle`, `sound` (iOS and
 * Android), `badge` (sets the iOS badge; Novu's increment-by-one otherwise), `mutableContent`,
 * `channelId` (Android channel), `icon` (small/large/Chrome/Firefox), `categoryId` (iOS category).
 */
export class OneSignalProvider implements ProviderAdapter<'push'> {
  readonly id = 'one-signal';
  readonly channel = 'push' as const;
  readonly credentialSchema = ONE_SIGNAL_CREDENTIALS;

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
      ...api.target(message.target),
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
      idempotency_key: deliveryUuid(context.idempotencyKey, message.target),
    });
    const response = await this.runtime.http.request({
      url: api.url('/notifications'),
      headers: { authorization: api.authorization },
      json: body,
      passthrough: context.passthrough,
      signal: context.signal,
    });
    const answer = response.json<{ id?: unknown; errors?: unknown }>();
    const refusedBy = refusedTargetField(answer?.errors, message.target);
    if (refusedBy)
      throw deadDeviceToken('OneSignal', message.target, refusedBy, errorText(answer?.errors)!, { status: response.status, raw: excerpt(response) });
    if (response.status < 200 || response.status >= 300) throw httpFailure(response, errorText(answer?.errors));
    if (typeof answer?.id !== 'string' || answer.id === '') {
      throw new ProviderError('permanent', `OneSignal did not send the notification: ${errorText(answer?.errors) ?? 'no id in the answer'}`, {
        status: response.status,
        raw: excerpt(response),
      });
    }
    return { id: answer.id, date: vendorDate(response), raw: { status: response.status, id: answer.id } };
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
