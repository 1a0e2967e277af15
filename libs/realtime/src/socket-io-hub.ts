import type { Server as HttpServer } from 'node:http';
import Redis from 'ioredis';
import { Server, ServerOptions } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { InboxSocket } from '@app/inbox';
import { PRESENCE_HEARTBEAT_MS, RoomPresence, presenceKey } from './room-presence';

export interface SocketIoHubOptions {
  /** Set: sockets of every API process meet through Redis (socket.io's Redis adapter), and workers reach them with the emitter. */
  redisUrl?: string;
  /** Redis channel prefix, shared with RedisEmitterInboxSocket. */
  channelPrefix: string;
}

/**
 * The socket.io server of an API process, on the API's own HTTP server (path /socket.io, as Novu's
 * clients connect). Emitting before it is attached goes nowhere: no socket can be listening yet.
 */
export class SocketIoHub implements InboxSocket {
  private io?: Server;
  private redis: Redis[] = [];
  /** Across processes (REDIS_URL set); alone, this process's own rooms are the whole truth. */
  private presence?: RoomPresence;
  private heartbeat?: NodeJS.Timeout;

  constructor(private readonly options: SocketIoHubOptions) {}

  attach(httpServer: HttpServer, serverOptions: Partial<ServerOptions> = {}): Server {
    if (this.io) return this.io;
    // Any origin: the Inbox is embedded in customers' pages; the token, not a cookie, authenticates.
    this.io = new Server(httpServer, { path: '/socket.io', cors: { origin: true, credentials: false }, ...serverOptions });
    if (this.options.redisUrl) {
      const pub = new Redis(this.options.redisUrl, { maxRetriesPerRequest: 3 });
      const sub = pub.duplicate();
      this.redis = [pub, sub];
      this.io.adapter(createAdapter(pub, sub, { key: this.options.channelPrefix }));
      const presence = new RoomPresence(pub, presenceKey(this.options.channelPrefix));
      this.presence = presence;
      const renew = (rooms: Iterable<string>) => presence.renew(rooms).catch(() => undefined); // a miss is renewed on the next beat
      // A socket's own room carries its id; subscriber rooms are the others.
      this.io.of('/').adapter.on('join-room', (room: string, socketId: string) => room !== socketId && void renew([room]));
      this.heartbeat = setInterval(() => {
        const rooms = [...(this.io?.of('/').adapter.rooms.entries() ?? [])].filter(([room, ids]) => !ids.has(room)).map(([room]) => room);
        void renew(rooms).then(() => presence.sweep().catch(() => undefined));
      }, PRESENCE_HEARTBEAT_MS);
      this.heartbeat.unref();
    }
    return this.io;
  }

  get server(): Server | undefined {
    return this.io;
  }

  async emit(room: string, event: string, payload: unknown): Promise<void> {
    this.io?.to(room).emit(event, payload);
  }

  async listening(rooms: string[]): Promise<Set<string>> {
    if (this.presence) return this.presence.listening(rooms);
    const local = this.io?.of('/').adapter.rooms;
    return new Set(rooms.filter((room) => local?.has(room)));
  }

  /** Sockets in a room across every process (through the adapter). */
  async socketsIn(room: string): Promise<number> {
    return this.io ? (await this.io.in(room).fetchSockets()).length : 0;
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    const io = this.io;
    this.io = undefined;
    if (io) await new Promise<void>((resolve) => io.close(() => resolve())).catch(() => undefined);
    await Promise.all(this.redis.map((client) => client.quit().catch(() => undefined)));
    this.redis = [];
  }
}
