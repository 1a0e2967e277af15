import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createSecureServer, Http2SecureServer, Http2ServerRequest, Http2ServerResponse, ServerHttp2Session } from 'node:http2';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * Loopback fakes of vendor APIs for provider tests. Each fake is a real server on
 * 127.0.0.1:<ephemeral> (plain HTTP, HTTPS or HTTP/2 over TLS with the test CA) that checks what
 * the vendor would check — method, path, authentication, headers, body — and answers as the vendor
 * does: success, or a scripted failure in the vendor's own error shape.
 *
 *   accepted  — sends the fake took (what a test asserts on: exactly one correct request)
 *   refusals  — requests the fake's checks refused, with the reason (a test expects none)
 *   requests  — everything that arrived
 */

const TLS_DIR = join(__dirname, '../fixtures/tls');
/** The test CA: trust it with `ca` (adapters' tests) or NODE_EXTRA_CA_CERTS (service processes). */
export const TEST_CA_PATH = join(TLS_DIR, 'ca.pem');
export const TEST_CA = readFileSync(TEST_CA_PATH, 'utf8');
export const TEST_TLS = { key: readFileSync(join(TLS_DIR, 'server-key.pem'), 'utf8'), cert: readFileSync(join(TLS_DIR, 'server-cert.pem'), 'utf8') };

export interface FakeRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  /** The body as JSON (throws when it is not). */
  json(): any;
  /** The body as x-www-form-urlencoded. */
  form(): URLSearchParams;
  header(name: string): string | undefined;
}

export interface FakeReply {
  status: number;
  headers?: Record<string, string>;
  /** Objects are sent as JSON. */
  body?: unknown;
}

/** Failures a test can script; each fake answers them in its vendor's shape. */
export type VendorOutcome = 'rate_limited' | 'unavailable' | 'permanent' | 'invalid_recipient' | 'auth';

export interface Refusal {
  request: FakeRequest;
  status: number;
  reason: string;
}

class Refused extends Error {
  constructor(
    readonly reply: FakeReply,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export type FakeProtocol = 'http' | 'https' | 'h2';

export abstract class VendorFake {
  readonly requests: FakeRequest[] = [];
  readonly accepted: FakeRequest[] = [];
  readonly refusals: Refusal[] = [];
  /** TCP connections opened to the fake (since the last reset): how well a client reuses its sockets. */
  connections = 0;
  private readonly script: VendorOutcome[] = [];
  private server?: Server | Http2SecureServer;
  private readonly h2Sessions = new Set<ServerHttp2Session>();
  protected protocol: FakeProtocol = 'http';

  /** The fake's origin (`http://127.0.0.1:P`), what an integration's `baseUrl` points at. */
  get origin(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `${this.protocol === 'http' ? 'http' : 'https'}://127.0.0.1:${port}`;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  /** The next sends fail with these outcomes, in order; later ones succeed. */
  failNext(...outcomes: VendorOutcome[]): this {
    this.script.push(...outcomes);
    return this;
  }

  /** Forget what arrived (between cases). */
  reset(): void {
    this.requests.length = 0;
    this.accepted.length = 0;
    this.refusals.length = 0;
    this.script.length = 0;
    this.connections = 0;
  }

  async start(protocol: FakeProtocol = this.protocol): Promise<this> {
    this.protocol = protocol;
    const handler = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        const request = toFakeRequest(req, Buffer.concat(chunks));
        this.requests.push(request);
        let reply: FakeReply;
        try {
          reply = await this.handle(request);
        } catch (error) {
          if (!(error instanceof Refused)) throw error;
          this.refusals.push({ request, status: error.reply.status, reason: error.reason });
          reply = error.reply;
        }
        if (reply.status === 0) return; // hold the request open (timeouts)
        const body = reply.body === undefined ? '' : typeof reply.body === 'string' || Buffer.isBuffer(reply.body) ? reply.body : JSON.stringify(reply.body);
        const headers = { ...(typeof reply.body === 'object' && !Buffer.isBuffer(reply.body) ? { 'content-type': 'application/json' } : {}), ...reply.headers };
        res.writeHead(reply.status, headers);
        res.end(body);
      });
    };
    if (protocol === 'h2') {
      const server = createSecureServer({ ...TEST_TLS, allowHTTP1: false }, handler);
      // HTTP/2 servers close only after their sessions do: track them so close() can end them.
      server.on('session', (session) => {
        this.h2Sessions.add(session);
        session.on('close', () => this.h2Sessions.delete(session));
      });
      this.server = server;
    } else if (protocol === 'https') this.server = createHttpsServer(TEST_TLS, handler);
    else this.server = createHttpServer(handler);
    this.server.on('connection', () => this.connections++);
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    if ('closeAllConnections' in server) server.closeAllConnections();
    for (const session of this.h2Sessions) session.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Route, check and answer one request. Call `refuse` for anything the vendor would reject. */
  protected abstract handle(request: FakeRequest): FakeReply | Promise<FakeReply>;

  /** The vendor's answer to a scripted failure. */
  protected abstract failure(outcome: VendorOutcome, request: FakeRequest): FakeReply;

  /** A checked send: the scripted failure if one is due, else `success` (and the request counts as accepted). */
  protected deliver(request: FakeRequest, success: FakeReply): FakeReply {
    const outcome = this.script.shift();
    if (outcome) return this.failure(outcome, request);
    this.accepted.push(request);
    return success;
  }

  /** Refuse as the vendor would; the reason is kept for the test's failure message. */
  protected refuse(status: number, reason: string, body: unknown = { error: reason }): never {
    throw new Refused({ status, body }, reason);
  }

  /** Refuses unless `condition` holds. */
  protected expect(condition: unknown, status: number, reason: string, body?: unknown): void {
    if (!condition) this.refuse(status, reason, body);
  }
}

function toFakeRequest(req: IncomingMessage | Http2ServerRequest, body: Buffer): FakeRequest {
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  const text = body.toString('utf8');
  return {
    method: req.method ?? '',
    path: decodeURIComponent(url.pathname),
    query: url.searchParams,
    headers: req.headers,
    body,
    text,
    json: () => JSON.parse(text),
    form: () => new URLSearchParams(text),
    header(name: string) {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    },
  };
}
