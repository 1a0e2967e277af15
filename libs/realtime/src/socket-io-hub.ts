import type { Server as HttpServer } from 'node:http';
import { Logger } from '@nestjs/common';
import { Server, ServerOptions } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { OutageLog } from '@app/kernel';
import { InboxSocket } from '@app/inbox';
import { PRESENCE_HEARTBEAT_MS, RoomPresence, presenceKey } from './room-presence';
import { WatchedRedis } from './watched-redis';

export interface SocketIoHubOptions {
  /** Set: sockets of every API process meet through Redis (socket.io's Redis adapter), and workers reach them with the emitter. */
  redisUrl?: string;
  /** Redis channel prefix, shared with RedisEmitterInboxSocket. */
  channelPrefix: string;
  /** How long a presence lookup or an announcement waits for Redis (REDIS_COMMAND_TIMEOUT_MS). */
  commandTimeoutMs: number;
}

/**
 * The socket.io server of an API process, on the API's own HTTP server (path /socket.io, as Novu's
 * clients connect). Emitting before it is attached goes nowhere: no socket can be listening yet.
 * While Redis fails, this process's sockets still hear what this process announces; announcements
 * to other processes' sockets are lost, and no request waits for Redis past the command timeout.
 */
export class SocketIoHub implements InboxSocket {
  private io?: Server;
  private redis: WatchedRedis[] = [];
  /** Across processes (REDIS_URL set); alone, this process's own rooms are the whole truth. */
  private presence?: RoomPresence;
  private heartbeat?: NodeJS.Timeout;

  constructor(private readonly options: SocketIoHubOptions) {}

  attach(httpServer: HttpServer, serverOptions: Partial<ServerOptions> = {}): Server {
    if (this.io) return this.io;
    // Any origin: the Inbox is embedded in customers' pages; the token, not a cookie, authenticates.
    this.io = new Server(httpServer, { path: '/socket.io', cors: { origin: true, credentials: false }, ...serverOptions });
    const { redisUrl, channelPrefix, commandTimeoutMs } = this.options;
    if (redisUrl) {
      const outage = new OutageLog(new Logger('SocketIoHub'), {
        down: (error) => `Inbox socket announcements reach only this process's sockets while Redis fails (${error.message}); one line when it answers again`,
        up: 'Inbox socket announcements reach every process through Redis again',
      });
      const pub = new WatchedRedis(redisUrl, { maxRetriesPerRequest: 3, commandTimeout: commandTimeoutMs }, outage);
      // Subscriptions wait for Redis however long it takes; ioredis subscribes again after a reconnection.
      const sub = new WatchedRedis(redisUrl, { maxRetriesPerRequest: null }, outage);
      this.redis = [pub, sub];
      this.io.adapter(createAdapter(pub, sub, { key: channelPrefix }));
      const presence = new RoomPresence(pub, presenceKey(channelPrefix));
      this.presence = presence;
      const renew = (rooms: Iterable<string>) => presence.renew(rooms).catch(() => undefined); // a miss is renewed on the next beat
      // A socket's own room carries its id; subscriber rooms are the others.
      const subscriberRooms = () => [...(this.io?.of('/').adapter.rooms.entries() ?? [])].filter(([room, ids]) => !ids.has(room)).map(([room]) => room);
      this.io.of('/').adapter.on('join-room', (room: string, socketId: string) => room !== socketId && void renew([room]));
      // A Redis that restarted empty knows no room until this process renews its own.
      pub.on('ready', () => void renew(subscriberRooms()));
      this.heartbeat = setInterval(() => void renew(subscriberRooms()).then(() => presence.sweep().catch(() => undefined)), PRESENCE_HEARTBEAT_MS);
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

  /** This process's rooms, and those Redis knows of (none while it fails: its failure is logged once). */
  async listening(rooms: string[]): Promise<Set<string>> {
    const local = this.io?.of('/').adapter.rooms;
    const here = rooms.filter((room) => local?.has(room));
    const elsewhere = rooms.filter((room) => !local?.has(room));
    if (!this.presence || elsewhere.length === 0) return new Set(here);
    const there = await this.presence.listening(elsewhere).catch(() => new Set<string>());
    return new Set([...here, ...there]);
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
    this.redis.forEach((client) => client.close());
    this.redis = [];
  }
}
