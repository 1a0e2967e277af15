import { createHash } from 'node:crypto';
import { ProviderCredentials, ProviderError, SendContext, SendResult, SmsMessage } from '@app/delivery';
import { optional, parseCredentials, ParsedCredentials, required } from '../../http/credential-schema';
import { valueAtPath, VendorResponse } from '../../http/vendor-http';
import { ProviderAdapter, ProviderRuntime } from '../../provider-runtime';
import { absoluteUrl, acceptedAt, senderOf, vendorHttpFailure } from '../sms-fields';

export const GENERIC_SMS_CREDENTIALS = {
  /** The gateway's send URL (not an origin: used as is). */
  baseUrl: required.url,
  apiKeyRequestHeader: required.string,
  apiKey: required.string,
  from: required.string,
  secretKeyRequestHeader: optional.string,
  secretKey: optional.string,
  /** Dot path of the message id in the gateway's answer (default `id`). */
  idPath: optional.string,
  /** Dot path of the accepted-at date in the gateway's answer (default `date`). */
  datePath: optional.string,
  authenticateByToken: optional.boolean,
  /** Token mode: the URL that exchanges the key headers for a token. */
  domain: optional.url,
  /** Token mode: the token's field in the auth answer's `data`, and the header it is sent in. */
  authenticationTokenKey: optional.string,
};

type GenericSmsConfig = ParsedCredentials<typeof GENERIC_SMS_CREDENTIALS>;

/** How long an exchanged token is reused; a 401 on send drops it sooner. */
const TOKEN_TTL_MS = 5 * 60_000;
const TOKEN_CACHE_LIMIT = 1_000;

/**
 * `generic-sms`, the bring-your-own-gateway adapter (Novu's contract): `POST baseUrl` with JSON
 * `{to, content, from, id, customData, sender}` (`sender` repeats `from`, the message's before
 * the integration's), headers `<apiKeyRequestHeader>: apiKey` and, when both are set,
 * `<secretKeyRequestHeader>: secretKey`, plus `Idempotency-Key: <our message id>`. The id and
 * date are read from the JSON answer at `idPath` (default `id`) and `datePath` (default `date`).
 *
 * Token mode (`authenticateByToken`): first `POST domain` with the key headers; the token is
 * `data[authenticationTokenKey]` of that answer (or the top-level field) and is sent as header
 * `<authenticationTokenKey>: token` next to the key headers. Tokens are reused for five minutes;
 * a 401 with a reused token drops it and the send is tried once more with a fresh one. Both URLs
 * go through the SSRF guard. No check: a gateway has no agreed side-effect-free call.
 *
 * Overrides: none beyond `_passthrough` (merged into the body, headers and query).
 */
export class GenericSmsProvider implements ProviderAdapter<'sms'> {
  readonly id = 'generic-sms';
  readonly channel = 'sms' as const;
  readonly credentialSchema = GENERIC_SMS_CREDENTIALS;
  private readonly tokens = new Map<string, { token: Promise<string>; expiresAt: number }>();

  constructor(private readonly runtime: ProviderRuntime) {}

  async send(message: SmsMessage, credentials: ProviderCredentials, context: SendContext): Promise<SendResult> {
    const config = parseCredentials(this.id, GENERIC_SMS_CREDENTIALS, credentials);
    const from = senderOf(message, config);
    const body = { to: message.to, content: message.content, from, id: message.id, customData: message.customData, sender: from };
    const keyHeaders = this.keyHeaders(config);
    const post = (token?: { header: string; value: string }) =>
      this.runtime.http.request({
        url: absoluteUrl(config.baseUrl),
        headers: { ...keyHeaders, 'idempotency-key': context.idempotencyKey, ...(token ? { [token.header]: token.value } : {}) },
        json: body,
        passthrough: context.passthrough,
        signal: context.signal,
      });

    let response: VendorResponse;
    if (config.authenticateByToken) {
      const tokenMode = this.tokenMode(config);
      const cached = this.tokens.get(tokenMode.cacheKey);
      const reused = !!cached && cached.expiresAt > Date.now();
      response = await post({ header: tokenMode.header, value: await this.token(config, tokenMode, context.signal) });
      if (response.status === 401 && reused) {
        this.tokens.delete(tokenMode.cacheKey);
        response = await post({ header: tokenMode.header, value: await this.token(config, tokenMode, context.signal) });
      }
      if (response.status === 401) this.tokens.delete(tokenMode.cacheKey);
    } else {
      response = await post();
    }
    if (response.status < 200 || response.status >= 300) throw vendorHttpFailure(response, { text: gatewayText(response) });
    const answer = response.json<unknown>();
    const id = valueAtPath(answer, config.idPath || 'id');
    return {
      id: typeof id === 'string' || typeof id === 'number' ? String(id) : undefined,
      date: acceptedAt(valueAtPath(answer, config.datePath || 'date'), response),
      raw: { status: response.status },
    };
  }

  private keyHeaders(config: GenericSmsConfig): Record<string, string> {
    const headers: Record<string, string> = { [config.apiKeyRequestHeader]: config.apiKey };
    if (config.secretKeyRequestHeader && config.secretKey) headers[config.secretKeyRequestHeader] = config.secretKey;
    return headers;
  }

  private tokenMode(config: GenericSmsConfig): { url: string; header: string; cacheKey: string } {
    if (!config.domain || !config.authenticationTokenKey) {
      const missing = ['domain', 'authenticationTokenKey'].filter((key) => !config[key as 'domain' | 'authenticationTokenKey']);
      throw new ProviderError(
        'invalid_request',
        `The ${this.id} integration authenticates by token and needs ${missing.map((key) => `credentials.${key}`).join(', ')}`,
        { raw: { missing } },
      );
    }
    // Hashed: the cache key must not keep the key and secret in the clear.
    const cacheKey = createHash('sha256')
      .update(JSON.stringify([config.domain, config.authenticationTokenKey, this.keyHeaders(config)]))
      .digest('hex');
    return { url: absoluteUrl(config.domain), header: config.authenticationTokenKey, cacheKey };
  }

  /** The cached token, or one fresh from the auth URL (one exchange at a time per integration). */
  private token(config: GenericSmsConfig, mode: { url: string; header: string; cacheKey: string }, signal: AbortSignal): Promise<string> {
    const cached = this.tokens.get(mode.cacheKey);
    if (cached && cached.expiresAt > Date.now()) return cached.token;
    if (this.tokens.size >= TOKEN_CACHE_LIMIT) this.tokens.clear();
    const token = this.exchange(config, mode, signal);
    this.tokens.set(mode.cacheKey, { token, expiresAt: Date.now() + TOKEN_TTL_MS });
    token.catch(() => {
      if (this.tokens.get(mode.cacheKey)?.token === token) this.tokens.delete(mode.cacheKey);
    });
    return token;
  }

  private async exchange(config: GenericSmsConfig, mode: { url: string; header: string }, signal: AbortSignal): Promise<string> {
    const response = await this.runtime.http.request({ url: mode.url, headers: this.keyHeaders(config), signal });
    if (response.status < 200 || response.status >= 300) {
      const error = vendorHttpFailure(response, { text: gatewayText(response) });
      throw new ProviderError(error.kind, `Token exchange failed: ${error.message}`, {
        status: error.status,
        retryAfterMs: error.retryAfterMs,
        raw: { status: response.status },
      });
    }
    const answer = response.json<{ data?: Record<string, unknown> } & Record<string, unknown>>();
    const token = answer?.data?.[mode.header] ?? answer?.[mode.header];
    if (typeof token !== 'string' && typeof token !== 'number') {
      throw new ProviderError('auth', `Token exchange failed: the answer of the auth URL has no data.${mode.header}`, {
        status: response.status,
        raw: { status: response.status },
      });
    }
    return String(token);
  }
}

/** A gateway's own error words, where it uses a common field for them. */
function gatewayText(response: VendorResponse): string | undefined {
  const body = response.json<Record<string, unknown>>();
  const text = body?.message ?? body?.error ?? body?.detail;
  return typeof text === 'string' ? text : undefined;
}
