import { ClientHttp2Session, connect, IncomingHttpHeaders } from 'node:http2';
import { LookupFunction } from 'node:net';
import { classifyNetworkError } from '../../network/failure-classification';
import { assertVendorEndpoint, guardedLookup } from '../../network/guarded-agent';

export interface Http2SessionsOptions {
  allowPrivateNetworkTargets: boolean;
  /** Trusted CAs (undefined: the system's). */
  ca?: string[];
  timeoutMs: number;
}

export interface Http2Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  header(name: string): string | undefined;
}

/** Apple asks providers to keep connections open; an idle one is closed after this long. */
const IDLE_CLOSE_MS = 10 * 60_000;
const MAX_ANSWER_BYTES = 64 * 1024;

interface Pooled {
  session: ClientHttp2Session;
  active: number;
}

/**
 * Long-lived HTTP/2 sessions over TLS, one per origin and key (APNs): a session that closes, errs
 * or receives GOAWAY is forgotten and the next request reconnects. Every connection passes the SSRF
 * guard (literal addresses before connecting, names through the guarded lookup), trusts the
 * runtime's CAs, and keeps the process alive only while a request is in flight.
 */
export class Http2Sessions {
  private readonly pool = new Map<string, Pooled>();

  constructor(private readonly options: Http2SessionsOptions) {}

  async post(origin: string, sessionKey: string, path: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<Http2Answer> {
    try {
      await assertVendorEndpoint(origin, this.options.allowPrivateNetworkTargets);
      return await this.exchange(this.session(origin, sessionKey), path, headers, body, AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)]));
    } catch (error) {
      // A stream canceled because its session failed carries the session's error as the cause.
      const cause = (error as { code?: string; cause?: unknown }).code === 'ERR_HTTP2_STREAM_CANCEL' ? (error as { cause?: unknown }).cause : undefined;
      throw classifyNetworkError(cause ?? error);
    }
  }

  /** Closes every session (shutdown, tests). */
  async close(): Promise<void> {
    const sessions = [...this.pool.values()].map((pooled) => pooled.session);
    this.pool.clear();
    await Promise.all(sessions.map((session) => new Promise<void>((resolve) => (session.closed ? resolve() : session.close(() => resolve())))));
  }

  private session(origin: string, sessionKey: string): Pooled {
    const key = `${origin}\n${sessionKey}`;
    const existing = this.pool.get(key);
    if (existing && !existing.session.closed && !existing.session.destroyed) return existing;
    const session = connect(origin, {
      ...(this.options.ca ? { ca: this.options.ca } : {}),
      lookup: guardedLookup(this.options.allowPrivateNetworkTargets) as unknown as LookupFunction,
    });
    const pooled: Pooled = { session, active: 0 };
    const forget = () => {
      if (this.pool.get(key) === pooled) this.pool.delete(key);
    };
    // The error also reaches the pending streams (as their cause); here it only retires the session.
    session.on('error', forget);
    session.on('goaway', forget);
    session.on('close', forget);
    session.setTimeout(IDLE_CLOSE_MS, () => session.close());
    session.unref();
    this.pool.set(key, pooled);
    return pooled;
  }

  private exchange(pooled: Pooled, path: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<Http2Answer> {
    return new Promise<Http2Answer>((resolve, reject) => {
      const { session } = pooled;
      if (pooled.active++ === 0) session.ref();
      const stream = session.request({ ':method': 'POST', ':path': path, ...headers }, { signal });
      let responseHeaders: IncomingHttpHeaders | undefined;
      let size = 0;
      const chunks: Buffer[] = [];
      stream.on('response', (received) => (responseHeaders = received));
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
      });
      stream.on('error', reject);
      stream.on('close', () => {
        if (--pooled.active === 0 && !session.destroyed) session.unref();
        if (!responseHeaders)
          return reject(Object.assign(new Error(`HTTP/2 stream closed without an answer (code ${stream.rstCode})`), { code: 'ECONNRESET' }));
        const answerHeaders = responseHeaders;
        resolve({
          status: Number(answerHeaders[':status']),
          headers: answerHeaders,
          text: Buffer.concat(chunks).toString('utf8'),
          header: (name) => {
            const value = answerHeaders[name.toLowerCase()];
            return Array.isArray(value) ? value[0] : value;
          },
        });
      });
      stream.end(body);
    });
  }
}
