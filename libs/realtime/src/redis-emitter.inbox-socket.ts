import { Logger } from '@nestjs/common';
import { Emitter } from '@socket.io/redis-emitter';
import { OutageLog } from '@app/kernel';
import { InboxSocket } from '@app/inbox';
import { RoomPresence, presenceKey } from './room-presence';
import { WatchedRedis } from './watched-redis';

export interface RedisEmitterInboxSocketOptions {
  redisUrl: string;
  /** Redis channel prefix, shared with SocketIoHub. */
  channelPrefix: string;
  /** How long a presence lookup or an announcement waits for Redis (REDIS_COMMAND_TIMEOUT_MS). */
  commandTimeoutMs: number;
}

/**
 * A worker process's way to the API processes' sockets: socket.io's Redis emitter, on the adapter's
 * channels, over a connection of its own. While Redis fails, nothing is announced (no subscriber
 * counts as listening, and a publish that fails is dropped): announcements are lost, deliveries are not.
 */
export class RedisEmitterInboxSocket implements InboxSocket {
  private readonly redis: WatchedRedis;
  private readonly emitter: Emitter;
  private readonly presence: RoomPresence;

  constructor(options: RedisEmitterInboxSocketOptions) {
    const outage = new OutageLog(new Logger('InboxSocket'), {
      down: (error) => `Inbox socket announcements are lost while Redis fails (${error.message}); one line when it answers again`,
      up: 'Inbox socket announcements reach Redis again',
    });
    this.redis = new WatchedRedis(options.redisUrl, { maxRetriesPerRequest: 3, commandTimeout: options.commandTimeoutMs }, outage);
    this.emitter = new Emitter(this.redis, { key: options.channelPrefix });
    this.presence = new RoomPresence(this.redis, presenceKey(options.channelPrefix));
  }

  listening(rooms: string[]): Promise<Set<string>> {
    return this.presence.listening(rooms).catch(() => new Set<string>());
  }

  async emit(room: string, event: string, payload: unknown): Promise<void> {
    this.emitter.to(room).emit(event, payload);
  }

  close(): void {
    this.redis.close();
  }
}
