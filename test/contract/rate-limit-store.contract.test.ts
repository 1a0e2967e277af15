import Redis from 'ioredis';
import { RateLimitStore, systemClock } from '@app/kernel';
import { RedisRateLimitStore } from '@app/redis';
import { InProcessRateLimitStore } from '../../apps/api/src/http/in-process-rate-limit.store';
import { TEST_REDIS_URL, uniqueName } from '../support/test-env';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The RateLimitStore contract: the in-process counter (embedded mode) and Redis (production mode) must both pass it. */
function rateLimitStoreContract(open: () => Promise<{ store: RateLimitStore; close(): Promise<void> }>) {
  let store: RateLimitStore;
  let close: () => Promise<void>;
  beforeAll(async () => ({ store, close } = await open()));
  afterAll(() => close());

  it('counts the hits of a key within its window, each key apart', async () => {
    const [a, b] = [uniqueName('a'), uniqueName('b')];
    const first = await store.hit(a, 60_000);
    expect(first.count).toBe(1);
    expect(first.resetInMs).toBeGreaterThan(59_000);
    expect(first.resetInMs).toBeLessThanOrEqual(60_000);
    expect((await store.hit(a, 60_000)).count).toBe(2);
    expect((await store.hit(b, 60_000)).count).toBe(1);
    expect((await store.hit(a, 60_000)).count).toBe(3);
  });

  it('gives concurrent hits distinct counts', async () => {
    const key = uniqueName('burst');
    const hits = await Promise.all(Array.from({ length: 25 }, () => store.hit(key, 60_000)));
    expect(hits.map((hit) => hit.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('counts a hit of several at once (a bulk trigger), alone and among concurrent hits', async () => {
    const key = uniqueName('bulk');
    expect((await store.hit(key, 60_000, 10)).count).toBe(10);
    expect((await store.hit(key, 60_000)).count).toBe(11);
    const hits = await Promise.all([store.hit(key, 60_000, 5), store.hit(key, 60_000), store.hit(key, 60_000, 3)]);
    const counts = hits.map((hit) => hit.count);
    expect(Math.max(...counts)).toBe(20);
    expect(new Set(counts).size).toBe(3);
  });

  it('starts counting again when the window has ended', async () => {
    const key = uniqueName('window');
    await store.hit(key, 300);
    const second = await store.hit(key, 300);
    expect(second.count).toBe(2);
    expect(second.resetInMs).toBeLessThanOrEqual(300);
    await sleep(second.resetInMs + 50);
    expect(await store.hit(key, 300)).toMatchObject({ count: 1 });
  });
}

describe('RateLimitStore in process', () => {
  rateLimitStoreContract(async () => ({ store: new InProcessRateLimitStore(systemClock), close: async () => undefined }));
});

describe('RateLimitStore on Redis', () => {
  rateLimitStoreContract(async () => {
    const redis = new Redis(TEST_REDIS_URL);
    const prefix = `${uniqueName('t')}:ratelimit:`;
    return {
      store: new RedisRateLimitStore(redis, prefix),
      close: async () => {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(...keys);
        await redis.quit();
      },
    };
  });
});
