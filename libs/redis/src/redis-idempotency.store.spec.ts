import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { RedisIdempotencyStore } from './redis-idempotency.store';

// Against the machine's Redis: a connection held by a blocking command stands in for a stalled Redis.
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Resolves once the connection answers again, i.e. every command sent before has run. */
async function answered(redis: Redis): Promise<void> {
  while (
    !(await redis.ping().then(
      () => true,
      () => false,
    ))
  );
}

describe('RedisIdempotencyStore on a Redis that does not answer in time', () => {
  const stalled = new Redis(REDIS_URL, { maxRetriesPerRequest: 3, commandTimeout: 100 });
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 3 });
  const prefix = `test:idempotency:${randomUUID()}:`;

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await Promise.all([redis.quit(), stalled.quit()]);
  });

  it('fails the claim, and takes it back once Redis runs it late, leaving another claimer alone', async () => {
    const store = new RedisIdempotencyStore(stalled, prefix);
    // Redis runs this connection's commands in order: the claim waits behind the BLPOP for 1 s.
    void stalled.blpop(`${prefix}nothing`, 1).catch(() => null);
    await expect(store.claim('env:k1', 'hash-a', 60)).rejects.toThrow('Command timed out');
    await answered(stalled);
    expect(await redis.exists(`${prefix}env:k1`)).toBe(0);
    expect(await new RedisIdempotencyStore(redis, prefix).claim('env:k1', 'hash-b', 60)).toBeNull();

    // The key was taken meanwhile: the late claim finds it held and removes nothing.
    void stalled.blpop(`${prefix}nothing`, 1).catch(() => null);
    await expect(store.claim('env:k1', 'hash-a', 60)).rejects.toThrow('Command timed out');
    await answered(stalled);
    expect(await new RedisIdempotencyStore(redis, prefix).claim('env:k1', 'hash-c', 60)).toEqual({ state: 'in_progress', bodyHash: 'hash-b' });
  });
});
