import Redis from 'ioredis';
import { IdempotencyStore } from '@app/kernel';
import { RedisIdempotencyStore } from '@app/redis';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';
import { TEST_REDIS_URL, uniqueName } from '../support/test-env';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The IdempotencyStore contract; the store adapters (embedded mode) and Redis (production mode) must pass it. */
function idempotencyStoreContract(open: () => Promise<{ repository: IdempotencyStore; close(): Promise<void> }>) {
  let store: IdempotencyStore;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository: store, close } = await open()));
  afterAll(() => close());

  it('grants a key to one claimer, even among concurrent ones; the others see the claim and its body hash', async () => {
    const key = uniqueName('env:key');
    const claims = await Promise.all([1, 2, 3, 4].map(() => store.claim(key, 'hash-a', 60)));
    expect(claims.filter((claim) => claim === null)).toHaveLength(1);
    for (const claim of claims.filter((c) => c !== null)) expect(claim).toEqual({ state: 'in_progress', bodyHash: 'hash-a' });
    expect(await store.claim(key, 'hash-b', 60)).toEqual({ state: 'in_progress', bodyHash: 'hash-a' });
  });

  it('answers a claim of a completed key with the stored response', async () => {
    const key = uniqueName('env:key');
    expect(await store.claim(key, 'hash-a', 60)).toBeNull();
    const response = { statusCode: 201, body: { data: { id: 'x', list: [1, 'two', null], nested: { ok: true } } } };
    await store.complete(key, 'hash-a', response, 60);
    expect(await store.claim(key, 'hash-a', 60)).toEqual({ state: 'done', bodyHash: 'hash-a', response });
    expect(await store.claim(key, 'hash-b', 60)).toEqual({ state: 'done', bodyHash: 'hash-a', response });
  });

  it('frees a released claim for the next claimer', async () => {
    const key = uniqueName('env:key');
    expect(await store.claim(key, 'hash-a', 60)).toBeNull();
    await store.release(key);
    expect(await store.claim(key, 'hash-b', 60)).toBeNull();
    expect(await store.claim(key, 'hash-b', 60)).toEqual({ state: 'in_progress', bodyHash: 'hash-b' });
    await store.release(uniqueName('never-claimed'));
  });

  it('lets a new claimer take a key over once its time is up', async () => {
    const key = uniqueName('env:key');
    expect(await store.claim(key, 'hash-a', 1)).toBeNull();
    await sleep(1_200);
    expect(await store.claim(key, 'hash-b', 60)).toBeNull();
    expect(await store.claim(key, 'hash-c', 60)).toEqual({ state: 'in_progress', bodyHash: 'hash-b' });
  });

  it('keeps keys apart', async () => {
    const [a, b] = [uniqueName('env-a:key'), uniqueName('env-b:key')];
    expect(await store.claim(a, 'hash-a', 60)).toBeNull();
    expect(await store.claim(b, 'hash-b', 60)).toBeNull();
    await store.complete(a, 'hash-a', { statusCode: 200, body: null }, 60);
    expect(await store.claim(b, 'hash-b', 60)).toEqual({ state: 'in_progress', bodyHash: 'hash-b' });
  });
}

describe.each(REPOSITORY_STORES)('IdempotencyStore on $name', (store) => {
  idempotencyStoreContract(openRepository(store, (r) => r.idempotency));
});

describe('IdempotencyStore on Redis', () => {
  idempotencyStoreContract(async () => {
    const redis = new Redis(TEST_REDIS_URL);
    const prefix = `${uniqueName('t')}:idempotency:`;
    return {
      repository: new RedisIdempotencyStore(redis, prefix),
      close: async () => {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(...keys);
        await redis.quit();
      },
    };
  });
});

describeMongoContract('IdempotencyStore', (store) => idempotencyStoreContract(openRepository(store, (r) => r.idempotency)));
