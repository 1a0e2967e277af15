import Redis from 'ioredis';
import { Emitter } from '@socket.io/redis-emitter';
import { InboxSocket } from '@app/inbox';

/** A worker process's way to the API processes' sockets: socket.io's Redis emitter, on the adapter's channels. */
export class RedisEmitterInboxSocket implements InboxSocket {
  private readonly emitter: Emitter;

  constructor(redis: Redis, channelPrefix: string) {
    this.emitter = new Emitter(redis, { key: channelPrefix });
  }

  async emit(room: string, event: string, payload: unknown): Promise<void> {
    this.emitter.to(room).emit(event, payload);
  }
}
