import { isProviderError, ProviderCheckResult, ProviderCredentials, ProviderError, PushMessage, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, required } from '../../http/credential-schema';
import { httpFailure, VendorResponse, vendorUrl } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { compact, deadDeviceToken, overrideReader, reclassify, stringValues, vendorDate } from '../push-fields';
import { GoogleAccessTokens, parseServiceAccount } from './google-access-tokens';

export const FCM_CREDENTIALS = { serviceAccount: required.json, baseUrl: optional.url };

const FCM_ORIGIN = 'https://fcm.googleapis.com';

/**
 * Firebase Cloud Messaging, HTTP v1 API, over VendorHttp (firebase-admin hard-codes its host and
 * speaks HTTP/2 only). `serviceAccount` is the service account JSON key: its `private_key` signs an
 * RS256 assertion exchanged at `token_uri` for an access token (cached, see GoogleAccessTokens);
 * the send is `POST /v1/projects/{project_id}/messages:send`, and the message id is the answer's
 * `name`. A 401 with a cached token drops it and tries once more with a fresh one.
 *
 * No batch: HTTP v1 has none (firebase-admin's `sendEach` is concurrent single sends). Concurrent
 * sends share the account's one access token and VendorHttp's kept-alive sockets.
 *
 * Overrides read (Novu's FCM keys):
 * - `type: 'data'`: a data-only message; title, body (and `message`, as Novu) go into `data`
 *   together with the trigger payload and `data`, instead of a `notification`.
 * - `data`: the message's `data` (values stringified, as FCM wants strings).
 * - `image` (or `imageUrl`): `notification.image`.
 * - `android`, `apns`, `webpush` (or Novu's `webPush`), `fcmOptions`: passed through in FCM v1
 *   JSON shape; firebase-admin forms Novu users write are converted where v1 would refuse them
 *   (android `ttl` in ms → "Ns", lowercase android `priority`, camelCase aps keys).
 */
export class FcmProvider implements ProviderAdapter<'push'> {
  readonly id = 'fcm';
  readonly channel = 'push' as const;
  readonly credentialSchema = FCM_CREDENTIALS;
  private readonly tokens: GoogleAccessTokens;

  constructor(private readonly runtime: ProviderRuntime) {
    this.tokens = new GoogleAccessTokens(runtime.http);
  }

  async send(message: PushMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, FCM_CREDENTIALS, credentials);
    const account = parseServiceAccount(this.id, config.serviceAccount);
    const url = vendorUrl(config.baseUrl, FCM_ORIGIN, `/v1/projects/${encodeURIComponent(account.projectId)}/messages:send`);
    const body = { message: fcmMessage(message, context.overrides) };
    const first = await this.tokens.get(account, context.signal);
    let accessToken = first.accessToken;
    let response = await this.post(url, accessToken, body, context);
    if (refusedAccessToken(response) && first.cached) {
      // Google can revoke a token before it expires: one fresh exchange, then give up.
      this.tokens.drop(account, accessToken);
      ({ accessToken } = await this.tokens.get(account, context.signal));
      response = await this.post(url, accessToken, body, context);
    }
    if (response.status !== 200) {
      if (refusedAccessToken(response)) this.tokens.drop(account, accessToken);
      throw fcmFailure(response, message.target);
    }
    const name = response.json<{ name?: unknown }>()?.name;
    const id = typeof name === 'string' ? name : undefined;
    return { ...(id ? { id } : {}), date: vendorDate(response), raw: { status: response.status, name: id } };
  }

  /** The OAuth token exchange: proves the service account's key, account and token_uri. */
  async check(credentials: ProviderCredentials, signal: AbortSignal): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, FCM_CREDENTIALS, credentials);
    const account = parseServiceAccount(this.id, config.serviceAccount);
    try {
      await this.tokens.exchange(account, signal);
      return { ok: true };
    } catch (error) {
      if (isProviderError(error) && error.kind === 'auth') return { ok: false, message: error.message };
      throw error;
    }
  }

  private post(url: string, accessToken: string, body: Record<string, unknown>, context: SendContext): Promise<VendorResponse> {
    return this.runtime.http.request({
      url,
      headers: { authorization: `Bearer ${accessToken}` },
      json: body,
      passthrough: context.passthrough,
      signal: context.signal,
    });
  }
}

function fcmMessage(message: PushMessage, overrides: Record<string, unknown> | undefined): Record<string, unknown> {
  const read = overrideReader(overrides);
  const dataOnly = read.string('type') === 'data';
  const data = dataOnly
    ? stringValues({ ...message.payload, ...read.object('data'), title: message.title, body: message.content, message: message.content })
    : stringValues(read.object('data'));
  return compact({
    token: message.target,
    notification: dataOnly ? undefined : { title: message.title, body: message.content, image: read.string('image') ?? read.string('imageUrl') },
    data: data && Object.keys(data).length ? data : undefined,
    android: androidConfig(read.object('android')),
    apns: apnsConfig(read.object('apns')),
    webpush: read.object('webpush') ?? read.object('webPush'),
    fcm_options: read.object('fcmOptions') ?? read.object('fcm_options'),
  });
}

/** firebase-admin takes `ttl` in milliseconds and lowercase priorities; v1 wants a duration and enum names. */
function androidConfig(android: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!android) return undefined;
  const config: Record<string, unknown> = { ...android };
  if (typeof config.ttl === 'number') config.ttl = `${config.ttl / 1000}s`;
  if (typeof config.priority === 'string') config.priority = config.priority.toUpperCase();
  return config;
}

const APS_KEYS: Record<string, string> = { contentAvailable: 'content-available', mutableContent: 'mutable-content', threadId: 'thread-id' };

/** firebase-admin's camelCase aps keys as APNs spells them (v1 passes `aps` through unchanged). */
function apnsConfig(apns: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const payload = apns?.payload as Record<string, unknown> | undefined;
  const aps = payload?.aps as Record<string, unknown> | undefined;
  if (!apns || !aps || typeof aps !== 'object') return apns;
  const converted = Object.fromEntries(
    Object.entries(aps).map(([key, value]) => {
      const apnsKey = APS_KEYS[key] ?? key;
      return [apnsKey, apnsKey !== key && typeof value === 'boolean' ? (value ? 1 : 0) : value];
    }),
  );
  return { ...apns, payload: { ...payload, aps: converted } };
}

/** A 401 about our access token (not THIRD_PARTY_AUTH_ERROR, which is about APNs / web push credentials). */
function refusedAccessToken(response: VendorResponse): boolean {
  return response.status === 401 && fcmErrorCode(response) !== 'THIRD_PARTY_AUTH_ERROR';
}

function fcmErrorCode(response: VendorResponse): string {
  const error = response.json<FcmErrorBody>()?.error;
  const details = Array.isArray(error?.details) ? error.details : [];
  return details.find((detail) => detail['@type']?.endsWith('google.firebase.fcm.v1.FcmError'))?.errorCode ?? error?.status ?? `HTTP_${response.status}`;
}

interface FcmErrorBody {
  error?: {
    code?: number;
    status?: string;
    message?: string;
    details?: { '@type'?: string; errorCode?: string; fieldViolations?: { field?: string }[] }[];
  };
}

/**
 * FCM's error code (the FcmError detail, else the RPC status) decides: UNREGISTERED and an
 * INVALID_ARGUMENT about the registration token mean a dead token; sender mismatch and APNs/web
 * push auth errors are the integration's credentials; QUOTA_EXCEEDED waits; UNAVAILABLE and
 * INTERNAL retry.
 */
function fcmFailure(response: VendorResponse, token: string): ProviderError {
  const error = response.json<FcmErrorBody>()?.error;
  const details = Array.isArray(error?.details) ? error.details : [];
  const code = fcmErrorCode(response);
  const base = httpFailure(response, error?.message);
  const aboutToken =
    /registration token/i.test(error?.message ?? '') ||
    details.some((detail) => detail.fieldViolations?.some((violation) => violation.field === 'message.token'));
  switch (code) {
    case 'UNREGISTERED':
      return deadDeviceToken('FCM', token, code, error?.message ?? 'the token is no longer registered', { status: response.status, raw: base.raw });
    case 'INVALID_ARGUMENT':
      return aboutToken
        ? deadDeviceToken('FCM', token, code, error?.message ?? 'invalid registration token', { status: response.status, raw: base.raw })
        : reclassify(base, 'invalid_request', code);
    case 'SENDER_ID_MISMATCH':
    case 'THIRD_PARTY_AUTH_ERROR':
    case 'UNAUTHENTICATED':
    case 'PERMISSION_DENIED':
      return reclassify(base, 'auth', code);
    case 'QUOTA_EXCEEDED':
    case 'RESOURCE_EXHAUSTED':
      return reclassify(base, 'rate_limited', code);
    case 'UNAVAILABLE':
    case 'INTERNAL':
      return reclassify(base, 'retryable', code);
    default:
      return reclassify(base, base.kind, code);
  }
}
