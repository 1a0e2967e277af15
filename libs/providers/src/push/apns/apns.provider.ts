import { createHash, createPrivateKey, KeyObject } from 'node:crypto';
import { isProviderError, ProviderCheckResult, ProviderCredentials, ProviderError, PushMessage, SendContext, SendResult } from '@app/delivery';
import { optional, parseCredentials, ParsedCredentials, required } from '../../http/credential-schema';
import { deepMerge, vendorUrl } from '../../http/vendor-http';
import { classifyHttpFailure } from '../../network/failure-classification';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { compact, deadDeviceToken, deliveryUuid, overrideReader, reclassify, signJwt, vendorDate } from '../push-fields';
import { Http2Answer, Http2Sessions } from './http2-sessions';

export const APNS_CREDENTIALS = {
  /** The .p8 signing key (PKCS#8 PEM). */
  secretKey: required.pem,
  /** Its Key ID (the JWT `kid`). */
  apiKey: required.string,
  /** The Team ID (the JWT `iss`). */
  projectName: required.string,
  /** The app's bundle id: the default `apns-topic`. */
  applicationId: required.string,
  /** true: production; otherwise the sandbox (development builds), as Novu. */
  secure: optional.boolean,
  baseUrl: optional.url,
};

const PRODUCTION_ORIGIN = 'https://api.push.apple.com';
const SANDBOX_ORIGIN = 'https://api.sandbox.push.apple.com';
/** Apple refuses provider tokens older than an hour and re-signing more often than every 20 minutes. */
const PROVIDER_TOKEN_REUSE_MS = 50 * 60_000;

type ApnsConfig = ParsedCredentials<typeof APNS_CREDENTIALS>;

/**
 * Apple Push Notification service over HTTP/2 (`POST /3/device/{token}`), token-based: an ES256
 * provider token signed with the .p8 key, reused for 50 minutes (dropped when Apple refuses it).
 * Sessions are kept open per origin and key (see Http2Sessions); `close()` ends them. The id is the
 * `apns-id` Apple answers, which echoes the UUID we derive from our message id.
 *
 * Overrides read: `topic` (instead of the bundle id), `pushType` (`alert` by default;
 * `background` sends `content-available` only, at priority 5), `priority`, `expiration` (UNIX
 * seconds), `collapseId`, `badge`, `sound`, `category`, `threadId`, `subtitle`, `mutableContent`,
 * `contentAvailable`, and `payload` (the custom top-level keys; the trigger payload otherwise).
 */
export class ApnsProvider implements ProviderAdapter<'push'> {
  readonly id = 'apns';
  readonly channel = 'push' as const;
  readonly credentialSchema = APNS_CREDENTIALS;
  private readonly sessions: Http2Sessions;
  private readonly providerTokens = new Map<string, { jwt: string; issuedAt: number }>();

  constructor(runtime: ProviderRuntime) {
    this.sessions = new Http2Sessions({ allowPrivateNetworkTargets: runtime.allowPrivateNetworkTargets, ca: runtime.ca, timeoutMs: runtime.timeoutMs });
  }

  async send(message: PushMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, APNS_CREDENTIALS, credentials);
    const read = overrideReader(context.overrides);
    const pushType = read.string('pushType') ?? 'alert';
    const background = pushType === 'background';
    const apnsId = deliveryUuid(context.idempotencyKey, message.target);
    const expiration = read.number('expiration');
    const headers = presentHeaders({
      'apns-topic': read.string('topic') ?? config.applicationId,
      'apns-push-type': pushType,
      'apns-priority': String(read.number('priority') ?? (background ? 5 : 10)),
      'apns-expiration': expiration === undefined ? undefined : String(Math.floor(expiration)),
      'apns-collapse-id': read.string('collapseId'),
      'apns-id': apnsId,
      'content-type': 'application/json',
      ...lowercaseKeys(context.passthrough?.headers),
    });
    const aps = background
      ? { 'content-available': 1 }
      : compact({
          alert: { title: message.title, subtitle: read.string('subtitle'), body: message.content },
          badge: read.number('badge'),
          sound: read.string('sound') ?? read.object('sound'),
          category: read.string('category'),
          'thread-id': read.string('threadId'),
          'mutable-content': read.boolean('mutableContent') ? 1 : undefined,
          'content-available': read.boolean('contentAvailable') ? 1 : undefined,
        });
    const { aps: _reserved, ...custom } = read.object('payload') ?? message.payload;
    const body = { ...custom, aps };
    const json = JSON.stringify(context.passthrough?.body ? deepMerge(body, context.passthrough.body) : body);

    const tokenKey = providerTokenKey(config);
    const answer = await this.sessions.post(
      originOf(config),
      tokenKey,
      `/3/device/${encodeURIComponent(message.target)}`,
      { ...headers, authorization: `bearer ${this.providerToken(config, tokenKey)}` },
      json,
      context.signal,
    );
    if (answer.status === 200) {
      const id = answer.header('apns-id') ?? apnsId;
      return { id, date: vendorDate(answer), raw: { status: 200, apnsId: id } };
    }
    const failure = apnsFailure(answer, message.target);
    if (failure.kind === 'auth') this.providerTokens.delete(tokenKey);
    throw failure;
  }

  /** Local only (Apple offers no side-effect-free call): the key is an ES256 key that signs a provider token. */
  async check(credentials: ProviderCredentials): Promise<ProviderCheckResult> {
    const config = parseCredentials(this.id, APNS_CREDENTIALS, credentials);
    try {
      signJwt('ES256', { kid: config.apiKey }, { iss: config.projectName, iat: Math.floor(Date.now() / 1000) }, signingKey(config));
      return { ok: true };
    } catch (error) {
      if (isProviderError(error)) return { ok: false, message: error.message };
      throw error;
    }
  }

  /** Ends the HTTP/2 sessions (service shutdown). */
  close(): Promise<void> {
    return this.sessions.close();
  }

  private providerToken(config: ApnsConfig, tokenKey: string): string {
    const cached = this.providerTokens.get(tokenKey);
    if (cached && Date.now() - cached.issuedAt < PROVIDER_TOKEN_REUSE_MS) return cached.jwt;
    const issuedAt = Date.now();
    const jwt = signJwt('ES256', { kid: config.apiKey }, { iss: config.projectName, iat: Math.floor(issuedAt / 1000) }, signingKey(config));
    this.providerTokens.set(tokenKey, { jwt, issuedAt });
    return jwt;
  }
}

function originOf(config: ApnsConfig): string {
  return new URL(vendorUrl(config.baseUrl, config.secure ? PRODUCTION_ORIGIN : SANDBOX_ORIGIN, '/')).origin;
}

function providerTokenKey(config: ApnsConfig): string {
  return createHash('sha256').update(`${config.apiKey}\n${config.projectName}\n${config.secretKey}`).digest('hex');
}

function signingKey(config: ApnsConfig): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(config.secretKey);
  } catch {
    throw new ProviderError('invalid_request', 'The apns integration credentials.secretKey is not a usable private key (.p8)', {
      raw: { invalid: ['secretKey'] },
    });
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new ProviderError('invalid_request', 'The apns integration credentials.secretKey is not an ES256 (P-256) key', { raw: { invalid: ['secretKey'] } });
  }
  return key;
}

function presentHeaders(headers: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function lowercaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([key, value]) => [key.toLowerCase(), value]));
}

const DEAD_TOKEN_REASONS = new Set(['Unregistered', 'BadDeviceToken', 'DeviceTokenNotForTopic', 'ExpiredToken']);

/**
 * Apple's `{reason}`: 410 Unregistered and a bad or foreign token are dead tokens; 403 provider
 * token errors are the integration's key (the cached token is dropped); 429 waits; 5xx retries.
 */
function apnsFailure(answer: Http2Answer, token: string): ProviderError {
  let reason: string | undefined;
  try {
    reason = (JSON.parse(answer.text) as { reason?: string }).reason;
  } catch {
    reason = undefined;
  }
  const base = classifyHttpFailure(answer.status, answer.headers, answer.text.slice(0, 2_000));
  const error = new ProviderError(base.kind, reason ? `${base.message}: ${reason}` : base.message, {
    status: base.status,
    retryAfterMs: base.retryAfterMs,
    raw: base.raw,
    providerCode: reason,
  });
  if (reason && DEAD_TOKEN_REASONS.has(reason))
    return deadDeviceToken('APNs', token, reason, `HTTP ${answer.status}`, { status: answer.status, raw: base.raw });
  if (answer.status === 403) return reclassify(error, 'auth');
  return error;
}
