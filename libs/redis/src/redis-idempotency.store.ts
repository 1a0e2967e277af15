import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { IdempotencyRecord, IdempotencyStore, StoredResponse } from '@app/kernel';

// Deletes the key only while it still holds this claim: a later claimer's is left alone.
const DROP_CLAIM_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Idempotency keys in Redis: SET NX claims, the stored response replaces the claim. */
export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'idempotency:',
  ) {}

  async claim(key: string, bodyHash: string, ttlSeconds: number): Promise<IdempotencyRecord | null> {
    // Each claim is its own value (`claim`), so a failed one can be taken back without touching another's.
    const claim = JSON.stringify({ state: 'in_progress', bodyHash, claim: randomUUID() });
    let ok: string | null;
    try {
      ok = await this.redis.set(this.prefix + key, claim, 'EX', ttlSeconds, 'NX');
    } catch (error) {
      // A command that timed out still runs once Redis answers: its claim would hold the key for
      // ttlSeconds with no one to complete it. Sent after it on the same connection, this runs after it.
      this.redis.eval(DROP_CLAIM_SCRIPT, 1, this.prefix + key, claim).catch(() => undefined);
      throw error;
    }
    if (ok === 'OK') return null;
    const existing = await this.redis.get(this.prefix + key);
    return existing ? toRecord(existing) : this.claim(key, bodyHash, ttlSeconds);
  }

  async complete(key: string, bodyHash: string, response: StoredResponse, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.prefix + key, JSON.stringify({ state: 'done', bodyHash, response }), 'EX', ttlSeconds);
  }

  async release(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}

function toRecord(stored: string): IdempotencyRecord {
  const record = JSON.parse(stored) as IdempotencyRecord;
  return record.state === 'done' ? record : { state: record.state, bodyHash: record.bodyHash };
}
