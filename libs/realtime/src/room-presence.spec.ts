import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { PRESENCE_TTL_MS, RoomPresence } from './room-presence';

// Against the machine's Redis (ZADD GT and ZMSCORE are what is being relied on).
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

describe('RoomPresence', () => {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 3 });
  const key = `test:presence:${randomUUID()}`;
  let now = 1_000_000;
  const presence = new RoomPresence(redis, key, () => now);

  afterAll(async () => {
    await redis.del(key);
    await redis.quit();
  });

  it('knows a renewed room, and no other', async () => {
    await presence.renew(['env:a', 'env:b']);
    expect(await presence.listening(['env:a', 'env:c', 'env:b'])).toEqual(new Set(['env:a', 'env:b']));
    expect(await presence.listening([])).toEqual(new Set());
  });

  it('lets a room lapse after the TTL unless renewed, and a sweep forgets it', async () => {
    await presence.renew(['env:lapsing', 'env:kept']);
    now += PRESENCE_TTL_MS - 1;
    await presence.renew(['env:kept']);
    now += 2;
    expect(await presence.listening(['env:lapsing', 'env:kept'])).toEqual(new Set(['env:kept']));
    await presence.sweep();
    expect(await redis.zscore(key, 'env:lapsing')).toBeNull();
    expect(await redis.zscore(key, 'env:kept')).not.toBeNull();
  });

  it('never shortens a presence another process renewed later (one process with an older clock)', async () => {
    await presence.renew(['env:shared']);
    const later = await redis.zscore(key, 'env:shared');
    now -= 10_000;
    await presence.renew(['env:shared']);
    expect(await redis.zscore(key, 'env:shared')).toBe(later);
  });
});
