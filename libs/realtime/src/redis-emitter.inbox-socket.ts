import Redis from 'ioredis';
import { Emitter } from '@socket.io/redis-emitter';
import { InboxSocket } from '@app/inbox';
import { RoomPresence, presenceKey } from './room-presence';

/** A worker process's way to the API processes' sockets: socket.io's Redis emitter, on the adapter's channels. */
export class RedisEmitterInboxSocket implements InboxSocket {
  private readonly emitter: Emitter;
  private readonly presence: RoomPresence;

  constructor(redis: Redis, channelPrefix: string) {
    this.emitter = new Emitter(redis, { key: channelPrefix });
    this.presence = new RoomPresence(redis, presenceKey(channelPrefix));
  }

  listening(rooms: string[]): Promise<Set<string>> {
    return this.presence.listening(rooms);
  }

  async emit(room: string, event: string, payload: unknown): Promise<void> {
    this.emitter.to(room).emit(event, payload);
  }
}
