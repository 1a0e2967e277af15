import { createServer as createHttpServer, Server as HttpServer } from 'node:http';
import { AddressInfo, Server as NetServer, Socket as NetSocket, createServer } from 'node:net';
import { Logger } from '@nestjs/common';
import { io as connect, Socket } from 'socket.io-client';
import { RedisEmitterInboxSocket } from './redis-emitter.inbox-socket';
import { SocketIoHub } from './socket-io-hub';

/**
 * The realtime adapters when Redis is gone (a port nothing listens on) or stalled (a server that
 * accepts connections and never answers, as a frozen Redis does): no rejection is left unhandled (it
 * would end the process), presence lookups answer within the command timeout, and the outage is one
 * warning, not one per call.
 */
const COMMAND_TIMEOUT_MS = 300;
const prefix = 'test:realtime-outage';

describe('realtime adapters while Redis fails', () => {
  let silent: NetServer;
  const held: NetSocket[] = [];
  let goneUrl: string;
  let stalledUrl: string;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  let warn: jest.SpyInstance;

  beforeAll(async () => {
    silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    stalledUrl = `redis://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    goneUrl = `redis://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    process.on('unhandledRejection', onUnhandled);
  });

  beforeEach(() => {
    unhandled.length = 0;
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => warn.mockRestore());

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    held.forEach((socket) => socket.destroy());
    await new Promise((resolve) => silent.close(resolve));
  });

  /** Long enough for a few reconnections and for every command to have failed. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 3 * COMMAND_TIMEOUT_MS + 500));

  describe.each([
    ['gone', () => goneUrl],
    ['stalled', () => stalledUrl],
  ])('Redis %s', (_, url) => {
    it('a worker emitter announces nothing, counts nobody as listening and logs the outage once', async () => {
      const socket = new RedisEmitterInboxSocket({ redisUrl: url(), channelPrefix: prefix, commandTimeoutMs: COMMAND_TIMEOUT_MS });
      try {
        for (let i = 0; i < 20; i++) await socket.emit('env:e:sub:s', 'unread_count_changed', { unreadCount: i });
        const startedAt = Date.now();
        expect(await socket.listening(['env:e:sub:s'])).toEqual(new Set());
        expect(Date.now() - startedAt).toBeLessThan(COMMAND_TIMEOUT_MS + 1_000);
        await settle();
        expect(unhandled).toEqual([]);
        expect(warn.mock.calls).toEqual([[expect.stringMatching(/^Inbox socket announcements are lost while Redis fails/)]]);
      } finally {
        socket.close();
      }
    });

    it("an api process's hub still reaches its own sockets, answers presence within the timeout and logs the outage once", async () => {
      const http: HttpServer = createHttpServer();
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      const hub = new SocketIoHub({ redisUrl: url(), channelPrefix: prefix, commandTimeoutMs: COMMAND_TIMEOUT_MS });
      const server = hub.attach(http);
      server.on('connection', (socket) => void socket.join('env:e:sub:here'));
      let client: Socket | undefined;
      try {
        client = connect(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { path: '/socket.io', transports: ['websocket'], reconnection: false });
        const heard = new Promise((resolve) => client!.on('unread_count_changed', resolve));
        await new Promise<void>((resolve) => client!.on('connect', () => resolve()));
        expect(await hub.listening(['env:e:sub:here'])).toEqual(new Set(['env:e:sub:here']));
        const startedAt = Date.now();
        expect(await hub.listening(['env:e:sub:here', 'env:e:sub:elsewhere'])).toEqual(new Set(['env:e:sub:here']));
        expect(Date.now() - startedAt).toBeLessThan(COMMAND_TIMEOUT_MS + 1_000);
        for (let i = 0; i < 20; i++) await hub.emit('env:e:sub:here', 'unread_count_changed', { unreadCount: i });
        await expect(heard).resolves.toEqual({ unreadCount: 0 });
        await settle();
        expect(unhandled).toEqual([]);
        expect(warn.mock.calls).toEqual([[expect.stringMatching(/^Inbox socket announcements reach only this process's sockets while Redis fails/)]]);
      } finally {
        client?.disconnect();
        await hub.close();
        await new Promise((resolve) => http.close(resolve));
      }
    });
  });
});
