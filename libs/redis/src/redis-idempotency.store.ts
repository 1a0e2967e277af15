import type Redis from 'ioredis';
import { IdempotencyRecord, IdempotencyStore, StoredResponse } from '@app/kernel';

/** Idempotency keys in Redis: SET NX claims, the stored response replaces the claim. */
export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'idempotency:',
  ) {}

  async claim(key: string, bodyHash: string, ttlSeconds: number): Promise<IdempotencyRecord | null> {
    const claim = JSON.stringify({ state: 'in_progress', bodyHash });
    const ok = await this.redis.set(this.prefix + key, claim, 'EX', ttlSeconds, 'NX');
    if (ok === 'OK') return null;
    const existing = await this.redis.get(this.prefix + key);
    return existing ? (JSON.parse(existing) as IdempotencyRecord) : this.claim(key, bodyHash, ttlSeconds);
  }

  async complete(key: string, bodyHash: string, response: StoredResponse, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.prefix + key, JSON.stringify({ state: 'done', bodyHash, response }), 'EX', ttlSeconds);
  }

  async release(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}
