import Redis from 'ioredis';

/** A room's presence outlives its last heartbeat by this long; a crashed process's rooms lapse after it. */
export const PRESENCE_TTL_MS = 90_000;
export const PRESENCE_HEARTBEAT_MS = 30_000;

/**
 * The subscriber rooms with sockets in any API process, in one Redis sorted set: room → the time its
 * presence lapses. An API process adds a room when a socket joins it and renews its rooms on a
 * heartbeat; it never removes one (another process may hold sockets of it), so a room lingers at
 * most PRESENCE_TTL_MS after its last socket: announcing to it meanwhile costs work, never an event.
 */
export class RoomPresence {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly now: () => number = Date.now,
  ) {}

  async renew(rooms: Iterable<string>): Promise<void> {
    const lapse = this.now() + PRESENCE_TTL_MS;
    const args = [...rooms].flatMap((room) => [lapse, room]);
    if (args.length === 0) return;
    await this.redis.zadd(this.key, 'GT', ...args);
  }

  /** Forgets lapsed rooms (any process may, on its heartbeat). */
  async sweep(): Promise<void> {
    await this.redis.zremrangebyscore(this.key, '-inf', this.now());
  }

  async listening(rooms: string[]): Promise<Set<string>> {
    if (rooms.length === 0) return new Set();
    const lapses = await this.redis.zmscore(this.key, ...rooms);
    const now = this.now();
    return new Set(rooms.filter((_, index) => lapses[index] !== null && Number(lapses[index]) > now));
  }
}

export const presenceKey = (channelPrefix: string) => `${channelPrefix}:presence`;
