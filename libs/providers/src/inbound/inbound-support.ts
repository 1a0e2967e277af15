import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  DeliveryEventType,
  InboundWebhookKeys,
  InboundWebhookRequest,
  InvalidWebhookSignatureError,
  MalformedWebhookBodyError,
  VendorDeliveryEvent,
  WEBHOOK_TOLERANCE_MS,
} from '@app/delivery';

/** What every vendor parser shares: constant-time comparison, the timestamp window, safe JSON reading. */

export function sameSecret(a: Buffer | string, b: Buffer | string): boolean {
  const left = Buffer.isBuffer(a) ? a : Buffer.from(a);
  const right = Buffer.isBuffer(b) ? b : Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The signing key, or a 401 saying which one to configure (never a 500). */
export function requireKey(key: string | undefined, what: string): string {
  if (!key) throw new InvalidWebhookSignatureError(`No ${what} is configured: set configurations.inboundWebhookSigningKey on the integration`);
  return key;
}

/** The account's auth token a vendor signs with: configurations.inboundWebhookSigningKey when set, else the integration's `token` credential. */
export function requireAuthToken(keys: InboundWebhookKeys, vendor: string): string {
  const token = keys.signingKey ?? stringOf(keys.credentials.token);
  if (!token)
    throw new InvalidWebhookSignatureError(`No ${vendor} auth token: set the integration token credential or configurations.inboundWebhookSigningKey`);
  return token;
}

/** A signed time (seconds or an ISO date) within five minutes of now, else 401. */
export function requireFresh(signedAt: Date | undefined, now: Date): void {
  if (!signedAt || Number.isNaN(signedAt.getTime())) throw new InvalidWebhookSignatureError('The signature timestamp is missing or unreadable');
  if (Math.abs(now.getTime() - signedAt.getTime()) > WEBHOOK_TOLERANCE_MS)
    throw new InvalidWebhookSignatureError('The signature timestamp is more than 5 minutes from now');
}

export function secondsToDate(value: unknown): Date | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,12}(\.\d+)?$/.test(text)) return undefined;
  return new Date(Math.round(Number(text) * 1000));
}

export function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new MalformedWebhookBodyError('The body is not JSON');
  }
}

export function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** A vendor time (ISO text or epoch seconds), else `fallback`. */
export function dateOf(value: unknown, fallback: Date): Date {
  const seconds = secondsToDate(value);
  if (seconds) return seconds;
  if (typeof value === 'string') {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return fallback;
}

/** A stable key for a vendor event that carries no id of its own. */
export function hashKey(...parts: (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return `sha256:${hash.digest('hex')}`;
}

/** A message id with and without the angle brackets some vendors wrap it in. */
export function idSpellings(id: string | undefined): string[] {
  if (!id) return [];
  const bare = id.replace(/^<|>$/g, '');
  return [...new Set([id, bare, `<${bare}>`])];
}

/** A short excerpt for the execution detail: only these fields, strings cut short. */
export function excerpt(source: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = source[field];
    if (value === undefined || value === null) continue;
    out[field] =
      typeof value === 'string' ? value.slice(0, 300) : typeof value === 'number' || typeof value === 'boolean' ? value : JSON.stringify(value).slice(0, 300);
  }
  return out;
}

export function header(headers: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * For vendors that sign nothing: the request must carry the configured key as HTTP Basic
 * credentials (`user:password`, from a callback URL of the form https://user:password@host/...)
 * or, where `bearer` is allowed, as `Authorization: Bearer <key>`. Compared in constant time.
 */
export function requireCredentials(request: InboundWebhookRequest, expected: string, vendor: string, options: { bearer: boolean }): void {
  const authorization = header(request.headers, 'authorization') ?? '';
  const basic = /^Basic\s+(\S+)$/i.exec(authorization);
  if (basic && sameSecret(Buffer.from(basic[1], 'base64').toString('utf8'), expected)) return;
  const bearer = options.bearer ? /^Bearer\s+(\S+)$/i.exec(authorization) : null;
  if (bearer && sameSecret(bearer[1], expected)) return;
  throw new InvalidWebhookSignatureError(
    `The ${options.bearer ? 'Basic credentials or bearer token do' : 'Basic credentials do'} not match the ones configured for this ${vendor} webhook`,
  );
}

/**
 * The parameters a vendor sent: those of a form or JSON object body (scalar values, as text), or,
 * for a request without a body (a GET callback), those of the URL's query.
 */
export function requestParams(request: InboundWebhookRequest): URLSearchParams {
  const text = request.rawBody.toString('utf8').trim();
  if (!text) return new URLSearchParams(URL.canParse(request.url) ? new URL(request.url).search : '');
  if (!text.startsWith('{')) return new URLSearchParams(text);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(objectOf(parseJson(request.rawBody)))) {
    const scalar = typeof value === 'boolean' ? String(value) : stringOf(value);
    if (scalar !== undefined) params.append(name, scalar);
  }
  return params;
}

const JWT_HMACS: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

/**
 * A JWT signed with a shared secret (HS256, or HS384/HS512): 401 unless the signature holds; then
 * its claims. `iat` (or `nbf`) must be within 5 minutes of now and `exp`, when present, not more
 * than 5 minutes past.
 */
export function verifySharedSecretJwt(token: string, secret: string, what: string, now: Date): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new InvalidWebhookSignatureError(`The ${what} is not a JWT`);
  const [encodedHeader, encodedClaims, signature] = parts;
  const decode = (part: string): Record<string, unknown> => {
    try {
      return objectOf(JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
    } catch {
      throw new InvalidWebhookSignatureError(`The ${what} is not a readable JWT`);
    }
  };
  const hash = JWT_HMACS[stringOf(decode(encodedHeader).alg) ?? ''];
  if (!hash) throw new InvalidWebhookSignatureError(`The ${what} must be signed with HS256, HS384 or HS512`);
  const expected = createHmac(hash, secret).update(`${encodedHeader}.${encodedClaims}`).digest('base64url');
  if (!sameSecret(expected, signature)) throw new InvalidWebhookSignatureError(`The ${what} signature does not match`);
  const claims = decode(encodedClaims);
  requireFresh(secondsToDate(claims.iat ?? claims.nbf), now);
  const expires = secondsToDate(claims.exp);
  if (expires && now.getTime() - expires.getTime() > WEBHOOK_TOLERANCE_MS) throw new InvalidWebhookSignatureError(`The ${what} has expired`);
  return claims;
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** What an SMS status report says: one message, one status. */
export interface SmsStatusReport {
  vendorId: string;
  status: string;
  type: DeliveryEventType;
  /** Our message id, where the vendor echoes the reference we sent. */
  messageId?: string;
  recipient?: string;
  occurredAt: Date;
  permanent: boolean;
  reason?: string;
  raw: Record<string, unknown>;
}

/** The event of an SMS status report, keyed by message and status (the vendor's retry of the report has the same key). */
export function smsStatusEvent(report: SmsStatusReport): VendorDeliveryEvent {
  const { vendorId, status, messageId, recipient, reason, ...rest } = report;
  return {
    key: `${vendorId}:${status}`,
    vendorMessageIds: [vendorId],
    ...(messageId ? { messageId } : {}),
    ...(recipient ? { recipient } : {}),
    ...(reason ? { reason } : {}),
    ...rest,
  };
}
