import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

export type ReceiverHandler = (request: ReceivedRequest, res: ServerResponse) => void;

/** A real node:http server on 127.0.0.1:<ephemeral> that records requests; for adapter tests. */
export class LoopbackReceiver {
  readonly requests: ReceivedRequest[] = [];
  private handler: ReceiverHandler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"ok"}');
  private constructor(private readonly server: Server) {}

  static async start(): Promise<LoopbackReceiver> {
    const holder: { receiver?: LoopbackReceiver } = {};
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') };
        const receiver = holder.receiver!;
        receiver.requests.push(request);
        receiver.handler(request, res);
      });
    });
    const receiver = (holder.receiver = new LoopbackReceiver(server));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  respond(handler: ReceiverHandler): void {
    this.handler = handler;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
