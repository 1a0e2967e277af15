import { Agent as HttpAgent, request as httpRequest, IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { assertPublicTarget, pinnedLookup, SsrfBlockedError } from './ssrf-guard';

export interface GuardedRequest {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal: AbortSignal;
  allowPrivate: boolean;
  /** Redirects are never followed blindly: 307/308 are re-checked and re-sent up to this many times. */
  maxRedirects?: number;
  /** Larger response bodies are cut (only an id or an excerpt is ever needed). */
  maxResponseBytes?: number;
  /** Trusted CAs for https (undefined: the system's). */
  ca?: string[];
}

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body was longer than `maxResponseBytes` and is cut there. */
  truncated: boolean;
  /** The URL that answered (after redirects). */
  url: string;
}

const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Vendor connections stay open between requests (Node's global agents do by default, but another
 * library may replace them): concurrent sends to one vendor reuse its sockets instead of a TCP and
 * TLS handshake each. Sockets are pooled by host, port and TLS options; each new one dials the
 * address the guard checked.
 */
const KEEP_ALIVE = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/**
 * One HTTP request to a tenant-supplied URL: the SSRF guard runs before connecting and on every
 * redirect hop, and the connection goes to the address the guard checked (no DNS rebinding).
 * Only 307/308 are followed (they keep method and body); other 3xx come back to the caller.
 */
export async function guardedRequest(request: GuardedRequest): Promise<GuardedResponse> {
  let url = request.url;
  const maxRedirects = request.maxRedirects ?? 3;
  for (let hop = 0; ; hop++) {
    const response = await onLiveSocket(() => requestOnce(url, request));
    const location = response.headers.location;
    if ((response.status === 307 || response.status === 308) && location) {
      // Name the origin only: a webhook URL's path or query can be a credential.
      if (hop >= maxRedirects) throw new SsrfBlockedError(new URL(url).origin, `more than ${maxRedirects} redirects`);
      url = new URL(location, url).toString();
      continue;
    }
    return response;
  }
}

/** How many times a request that met a kept-alive socket the server had just closed is sent again. */
const STALE_SOCKET_RETRIES = 2;

/**
 * A kept-alive socket the vendor closed while idle fails the next request on it at once
 * (ECONNRESET before any answer): the vendor never read that request, so it goes again, on another
 * socket (Node's advice for keep-alive agents). Other failures are the caller's.
 */
async function onLiveSocket(send: () => Promise<GuardedResponse>): Promise<GuardedResponse> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof StaleSocketError) || attempt >= STALE_SOCKET_RETRIES) throw error instanceof StaleSocketError ? error.cause : error;
    }
  }
}

class StaleSocketError extends Error {
  constructor(override readonly cause: unknown) {
    super('stale kept-alive socket');
  }
}

async function requestOnce(url: string, request: GuardedRequest): Promise<GuardedResponse> {
  const target = await assertPublicTarget(url, { allowPrivate: request.allowPrivate });
  request.signal.throwIfAborted();
  const https = target.url.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  const limit = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
  return new Promise<GuardedResponse>((resolve, reject) => {
    const req = send(
      target.url,
      {
        method: request.method ?? 'POST',
        headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...request.headers },
        agent: https ? KEEP_ALIVE.https : KEEP_ALIVE.http,
        lookup: pinnedLookup(target),
        // certificates name the host, not the address we connect to (SNI takes no IP literals)
        ...(isIP(target.hostname) ? {} : { servername: target.hostname }),
        signal: request.signal,
        ...(request.ca ? { ca: request.ca } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const answer = () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            truncated: size > limit,
            url: target.url.toString(),
          });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk.subarray(0, limit - size));
          size += chunk.length;
          // The rest is never read: what is kept is all there will be.
          if (size > limit) {
            answer();
            res.destroy();
          }
        });
        res.on('end', answer);
        res.on('error', reject);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (request.signal.aborted && request.signal.reason instanceof Error) return reject(request.signal.reason);
      reject(req.reusedSocket && error.code === 'ECONNRESET' ? new StaleSocketError(error) : error);
    });
    req.end(body);
  });
}
