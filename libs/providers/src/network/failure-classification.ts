import { ProviderError } from '@app/delivery';
import { SsrfBlockedError } from './ssrf-guard';

export type HeaderBag = Record<string, string | string[] | undefined> | Headers;

function header(headers: HeaderBag | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP-date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined | null, now: Date = new Date()): number | undefined {
  if (value === undefined || value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}

const RETRYABLE_STATUSES = new Set([408, 425, 500, 502, 503, 504]);
const INVALID_REQUEST_STATUSES = new Set([400, 404, 405, 409, 413, 415, 422]);

/**
 * A non-2xx HTTP answer as a ProviderError: 408/425/5xx retryable, 429 rate limited (with
 * Retry-After), 401/403 auth, 410 invalid recipient (the endpoint is gone), other 4xx invalid
 * request / permanent. 501 and 505 will not get better by retrying.
 */
export function classifyHttpFailure(status: number, headers?: HeaderBag, bodyExcerpt?: string, now: Date = new Date()): ProviderError {
  const retryAfterMs = parseRetryAfter(header(headers, 'retry-after'), now);
  const raw = bodyExcerpt === undefined ? { status } : { status, body: bodyExcerpt };
  const base = { status, raw, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  if (status === 429) return new ProviderError('rate_limited', `Provider rate limit reached (HTTP 429)`, base);
  if (RETRYABLE_STATUSES.has(status) || (status >= 500 && status !== 501 && status !== 505)) {
    return new ProviderError('retryable', `Provider unavailable (HTTP ${status})`, base);
  }
  if (status === 401 || status === 403) return new ProviderError('auth', `Provider refused the credentials (HTTP ${status})`, base);
  if (status === 410) return new ProviderError('invalid_recipient', 'The recipient endpoint is gone (HTTP 410)', base);
  if (INVALID_REQUEST_STATUSES.has(status)) return new ProviderError('invalid_request', `Provider rejected the request (HTTP ${status})`, base);
  if (status >= 300 && status < 400) return new ProviderError('permanent', `Provider answered with a redirect (HTTP ${status}) that is not followed`, base);
  return new ProviderError('permanent', `Provider request failed (HTTP ${status})`, base);
}

const RETRYABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND', // may be a transient resolver failure; retries are bounded
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ABORT_ERR',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/**
 * A failure before any HTTP status arrived. Connection and timeout failures are retryable (a
 * timeout after sending may duplicate, which is why requests carry Idempotency-Key); an SSRF
 * refusal or a TLS certificate problem is permanent.
 */
export function classifyNetworkError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof SsrfBlockedError) {
    return new ProviderError('invalid_request', error.message, { raw: { reason: error.reason }, cause: error });
  }
  // fetch wraps the socket error in `cause`; look through the chain
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { name?: string; code?: string; message?: string; cause?: unknown };
    if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'ABORT_ERR') {
      return new ProviderError('retryable', 'Provider request timed out or was aborted', { raw: { code: e.code ?? e.name }, cause: error });
    }
    if (e.code && RETRYABLE_CODES.has(e.code)) {
      return new ProviderError('retryable', `Provider connection failed (${e.code})`, { raw: { code: e.code, message: e.message }, cause: error });
    }
    if (e.code && /^CERT_|_CERT|^ERR_TLS_|^DEPTH_ZERO|SELF_SIGNED|^UNABLE_TO_(VERIFY|GET_ISSUER)|^HOSTNAME_MISMATCH|^ERR_SSL_/.test(e.code)) {
      return new ProviderError('permanent', `Provider TLS verification failed (${e.code})`, { raw: { code: e.code, message: e.message }, cause: error });
    }
    current = e.cause;
  }
  const message = (error as Error)?.message ?? String(error);
  return new ProviderError('permanent', `Provider request failed: ${message}`, { raw: { message }, cause: error });
}
