import { IncomingHttpHeaders } from 'node:http';
import { ProviderError, ProviderPassthrough } from '@app/delivery';
import { classifyHttpFailure, classifyNetworkError } from '../network/failure-classification';
import { guardedRequest } from '../network/guarded-http';

export interface VendorHttpOptions {
  /** ALLOW_PRIVATE_NETWORK_TARGETS: a `baseUrl` may point at loopback/private addresses. */
  allowPrivateNetworkTargets: boolean;
  /** Per-request ceiling on top of the caller's signal. */
  timeoutMs?: number;
  /** Trusted CAs for https (undefined: the system's). */
  ca?: string[];
}

export const DEFAULT_VENDOR_TIMEOUT_MS = 10_000;
const USER_AGENT = 'notify-service/1';

export interface VendorRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string | undefined>;
  /** Query parameters added to the URL (undefined values are left out). */
  query?: Record<string, string | undefined>;
  /** One body at most: JSON, a form (x-www-form-urlencoded), multipart, or raw bytes. */
  json?: unknown;
  form?: Record<string, string | string[] | undefined>;
  multipart?: FormData;
  body?: string | Buffer;
  signal: AbortSignal;
  /** `_passthrough` overrides: merged into the JSON body (deep) or form (flat), headers and query. */
  passthrough?: ProviderPassthrough;
  /** Larger answers are cut here (64 KiB unless said: a batch's one result per message needs more). */
  maxResponseBytes?: number;
}

export interface VendorResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json<T = Record<string, unknown>>(): T | undefined;
  header(name: string): string | undefined;
}

/**
 * The one way provider adapters call a vendor API: through the SSRF guard (a `baseUrl` is
 * tenant-supplied), with a timeout, network failures classified as ProviderErrors. `send` also
 * classifies any non-2xx answer; `request` leaves the status to the caller (vendors that answer
 * errors with 200, or 404 meaning "gone").
 */
export class VendorHttp {
  constructor(private readonly options: VendorHttpOptions) {}

  async request(request: VendorRequest): Promise<VendorResponse> {
    const { url, headers, body } = await encode(request);
    const signal = AbortSignal.any([request.signal, AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_VENDOR_TIMEOUT_MS)]);
    let response;
    try {
      response = await guardedRequest({
        url,
        method: request.method ?? 'POST',
        headers,
        body,
        signal,
        allowPrivate: this.options.allowPrivateNetworkTargets,
        ca: this.options.ca,
        maxResponseBytes: request.maxResponseBytes,
      });
    } catch (error) {
      throw classifyNetworkError(error);
    }
    return toVendorResponse(response.status, response.headers, response.body);
  }

  async send(request: VendorRequest): Promise<VendorResponse> {
    const response = await this.request(request);
    if (response.status < 200 || response.status >= 300) throw httpFailure(response);
    return response;
  }
}

/** A non-2xx answer as a classified ProviderError carrying the vendor's body excerpt. */
export function httpFailure(response: VendorResponse, message?: string): ProviderError {
  const error = classifyHttpFailure(response.status, response.headers, response.text.slice(0, 2_000));
  if (!message) return error;
  return new ProviderError(error.kind, `${error.message}: ${message}`, {
    status: error.status,
    retryAfterMs: error.retryAfterMs,
    raw: error.raw,
  });
}

function toVendorResponse(status: number, headers: IncomingHttpHeaders, text: string): VendorResponse {
  let parsed: { value: unknown } | undefined;
  return {
    status,
    headers,
    text,
    json<T>() {
      if (!parsed) {
        try {
          parsed = { value: text === '' ? undefined : JSON.parse(text) };
        } catch {
          parsed = { value: undefined };
        }
      }
      return parsed.value as T | undefined;
    },
    header(name: string) {
      const value = headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    },
  };
}

async function encode(request: VendorRequest): Promise<{ url: string; headers: Record<string, string>; body?: string | Buffer }> {
  const { passthrough } = request;
  const url = new URL(request.url);
  for (const [key, value] of Object.entries({ ...request.query, ...passthrough?.query })) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json' };
  let body: string | Buffer | undefined;
  if (request.json !== undefined) {
    const json = passthrough?.body && isPlainObject(request.json) ? deepMerge(request.json, passthrough.body) : request.json;
    body = JSON.stringify(json);
    headers['content-type'] = 'application/json';
  } else if (request.form !== undefined) {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries({ ...request.form, ...(passthrough?.body as Record<string, string> | undefined) })) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) form.append(key, String(item));
    }
    body = form.toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (request.multipart !== undefined) {
    for (const [key, value] of Object.entries(passthrough?.body ?? {})) request.multipart.set(key, String(value));
    // Let the platform write the multipart framing and boundary.
    const encoded = new Request('http://multipart.invalid/', { method: 'POST', body: request.multipart });
    body = Buffer.from(await encoded.arrayBuffer());
    headers['content-type'] = encoded.headers.get('content-type')!;
  } else if (request.body !== undefined) {
    body = request.body;
  }
  for (const [key, value] of Object.entries({ ...request.headers, ...passthrough?.headers })) {
    if (value !== undefined) headers[key.toLowerCase()] = value;
  }
  return { url: url.toString(), headers, body };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** Objects merge key by key; anything else in `patch` replaces. */
export function deepMerge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    merged[key] = isPlainObject(value) && isPlainObject(merged[key]) ? deepMerge(merged[key], value) : value;
  }
  return merged;
}

/**
 * The vendor API's origin: the integration's `baseUrl` when set (regional endpoints, egress
 * proxies, tests; a scheme-less host gets https://, as vendor SDKs do), else the vendor's default.
 * A path in `baseUrl` is kept as a prefix.
 */
export function vendorUrl(baseUrl: string | undefined, defaultOrigin: string, path: string): string {
  let origin = defaultOrigin;
  if (baseUrl && baseUrl.trim() !== '') {
    const trimmed = baseUrl.trim();
    origin = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  }
  return `${origin.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** `Basic base64(user:password)`. */
export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** A value at a dot path (`data.id`, `messages.0.id`), for vendors whose id sits deep in the answer. */
export function valueAtPath(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
