import { Clock, IdempotencyRecord, IdempotencyStore, StoredResponse, systemClock } from '@app/kernel';
import { copy, stored } from './memory-records';

interface Claim {
  bodyHash: string;
  response?: StoredResponse;
  expiresAt: number;
}

/** IdempotencyStore in memory, as the SQL one: an expired claim is taken over, only an unfinished claim is released. */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  private readonly claims = new Map<string, Claim>();

  constructor(private readonly clock: Clock = systemClock) {}

  async claim(key: string, bodyHash: string, ttlSeconds: number): Promise<IdempotencyRecord | null> {
    const now = this.clock.now().getTime();
    const existing = this.claims.get(key);
    if (!existing || existing.expiresAt < now) {
      this.claims.set(key, stored({ bodyHash, expiresAt: now + ttlSeconds * 1000 }));
      return null;
    }
    return existing.response
      ? { state: 'done', bodyHash: existing.bodyHash, response: copy(existing.response) }
      : { state: 'in_progress', bodyHash: existing.bodyHash };
  }

  async complete(key: string, bodyHash: string, response: StoredResponse, ttlSeconds: number): Promise<void> {
    const existing = this.claims.get(key);
    if (!existing || existing.bodyHash !== bodyHash) return;
    // The body is stored as jsonb: an absent body reads back as null.
    const kept = stored({ statusCode: response.statusCode, body: response.body ?? null });
    this.claims.set(key, { bodyHash, response: kept, expiresAt: this.clock.now().getTime() + ttlSeconds * 1000 });
  }

  async release(key: string): Promise<void> {
    if (this.claims.get(key)?.response === undefined) this.claims.delete(key);
  }
}
