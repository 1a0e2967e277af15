import { createServer, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { guardedRequest } from './guarded-http';

describe('guardedRequest on kept-alive sockets', () => {
  let server: Server;
  let origin: string;
  /** Requests each socket carried; a socket's second request is dropped unanswered, as a server closing an idle socket does. */
  const served = new Map<Socket, number>();
  let dropped = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const count = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, count);
      req.resume();
      req.on('end', () => {
        if (count > 1) {
          dropped++;
          req.socket.destroy();
        } else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = () => guardedRequest({ url: `${origin}/send`, body: '{}', signal: AbortSignal.timeout(5_000), allowPrivate: true });

  it('a request the server drops on a reused socket goes again on a fresh one; sockets are reused', async () => {
    expect((await post()).status).toBe(200);
    expect(served.size).toBe(1);
    expect((await post()).status).toBe(200);
    expect(dropped).toBe(1);
    expect(served.size).toBe(2);
  });
});
