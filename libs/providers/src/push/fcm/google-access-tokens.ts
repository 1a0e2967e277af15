import { createHash, createPrivateKey, KeyObject } from 'node:crypto';
import { ProviderError } from '@app/delivery';
import { httpFailure, VendorHttp } from '../../http/vendor-http';
import { signJwt } from '../push-fields';

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';
/** Google accepts assertions valid for at most an hour. */
const ASSERTION_LIFETIME_S = 3600;
/** Refresh this long before Google's `expires_in` runs out. */
const REFRESH_MARGIN_S = 60;

/** The fields of a Google service account JSON key that the OAuth exchange and FCM need. */
export interface ServiceAccount {
  projectId: string;
  clientEmail: string;
  privateKey: KeyObject;
  privateKeyId?: string;
  tokenUri: string;
  /** Identifies the key in the token cache without keeping the PEM around. */
  fingerprint: string;
}

/** The service account JSON as typed fields; anything unusable is an `invalid_request` naming the field (never its value). */
export function parseServiceAccount(providerId: string, json: Record<string, unknown>): ServiceAccount {
  const text = (key: string) => (typeof json[key] === 'string' && json[key].trim() !== '' ? json[key].trim() : undefined);
  const missing = ['project_id', 'client_email', 'private_key'].filter((key) => text(key) === undefined);
  if (missing.length) {
    throw new ProviderError('invalid_request', `The ${providerId} integration's credentials.serviceAccount lacks ${missing.join(', ')}`, { raw: { missing } });
  }
  const pem = text('private_key')!.replace(/\\n/g, '\n');
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new ProviderError('invalid_request', `The ${providerId} integration's credentials.serviceAccount private_key is not a usable PEM private key`, {
      raw: { invalid: ['private_key'] },
    });
  }
  if (privateKey.asymmetricKeyType !== 'rsa') {
    throw new ProviderError('invalid_request', `The ${providerId} integration's credentials.serviceAccount private_key is not an RSA key`, {
      raw: { invalid: ['private_key'] },
    });
  }
  const clientEmail = text('client_email')!;
  const tokenUri = text('token_uri') ?? DEFAULT_TOKEN_URI;
  return {
    projectId: text('project_id')!,
    clientEmail,
    privateKey,
    privateKeyId: text('private_key_id'),
    tokenUri,
    fingerprint: createHash('sha256').update(`${clientEmail}\n${tokenUri}\n${pem}`).digest('hex'),
  };
}

interface Issued {
  accessToken: string;
  refreshAt: number;
}

interface CacheEntry {
  pending?: Promise<Issued>;
  issued?: Issued;
}

/**
 * OAuth access tokens for service accounts (RFC 7523 JWT bearer grant against the account's
 * `token_uri`, a tenant-supplied URL that VendorHttp guards). Tokens are cached per account until
 * shortly before they expire, and concurrent sends share one exchange.
 */
export class GoogleAccessTokens {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(private readonly http: VendorHttp) {}

  /** A token for the account; `cached` tells whether it predates this call (and so may have been revoked). */
  async get(account: ServiceAccount, signal: AbortSignal): Promise<{ accessToken: string; cached: boolean }> {
    const entry = this.cache.get(account.fingerprint);
    if (entry?.issued && entry.issued.refreshAt > Date.now()) return { accessToken: entry.issued.accessToken, cached: true };
    if (entry?.pending) return { accessToken: (await entry.pending).accessToken, cached: false };
    const pending = this.exchange(account, signal);
    const fresh: CacheEntry = { pending };
    this.cache.set(account.fingerprint, fresh);
    try {
      const issued = await pending;
      fresh.issued = issued;
      return { accessToken: issued.accessToken, cached: false };
    } catch (error) {
      if (this.cache.get(account.fingerprint) === fresh) this.cache.delete(account.fingerprint);
      throw error;
    } finally {
      fresh.pending = undefined;
    }
  }

  /** Forget a token the API refused, so the next call exchanges again. */
  drop(account: ServiceAccount, accessToken: string): void {
    if (this.cache.get(account.fingerprint)?.issued?.accessToken === accessToken) this.cache.delete(account.fingerprint);
  }

  /** One exchange, bypassing the cache (also what proves a service account valid). */
  async exchange(account: ServiceAccount, signal: AbortSignal): Promise<Issued> {
    const now = Math.floor(Date.now() / 1000);
    const assertion = signJwt(
      'RS256',
      account.privateKeyId ? { kid: account.privateKeyId } : {},
      { iss: account.clientEmail, scope: FCM_SCOPE, aud: account.tokenUri, iat: now, exp: now + ASSERTION_LIFETIME_S },
      account.privateKey,
    );
    const response = await this.http.request({ url: account.tokenUri, form: { grant_type: JWT_BEARER_GRANT, assertion }, signal });
    const answer = response.json<{ access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown }>();
    if (response.status !== 200) {
      const words = [answer?.error, answer?.error_description].filter((part) => typeof part === 'string').join(': ');
      const error = httpFailure(response, words || undefined);
      // 400 invalid_grant / 401 invalid_client: the key, its account or the clock is wrong; no retry fixes that.
      if ([400, 401, 403].includes(response.status)) {
        const providerCode = typeof answer?.error === 'string' ? answer.error : undefined;
        throw new ProviderError('auth', `Google refused the service account: ${words || `HTTP ${response.status}`}`, {
          status: response.status,
          raw: error.raw,
          providerCode,
        });
      }
      throw error;
    }
    if (typeof answer?.access_token !== 'string' || answer.access_token === '') {
      throw new ProviderError('permanent', 'Google answered the token exchange without an access_token', { status: response.status });
    }
    const lifetime = Number(answer.expires_in) > 0 ? Number(answer.expires_in) : ASSERTION_LIFETIME_S;
    return { accessToken: answer.access_token, refreshAt: Date.now() + Math.max(0, lifetime - REFRESH_MARGIN_S) * 1000 };
  }
}
