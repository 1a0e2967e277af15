import { IdempotencyRecord, IdempotencyStore, StoredResponse } from '@app/kernel';
import { Doc } from '../mongo-documents';
import { guardedRepository, isDuplicateKey } from '../mongo-errors';
import { fromStoredJson, toStoredJson } from '../mongo-json';
import { COLLECTIONS, MongoStore } from '../mongo-store';

const after = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

/** The write that claims a key: takes it when absent (an insert) or expired (an update); a live claim makes it a duplicate key. */
export function idempotencyClaim(key: string, bodyHash: string, ttlSeconds: number, now: Date) {
  return {
    filter: { _id: key, expiresAt: { $lt: now } },
    update: { $set: { bodyHash, expiresAt: after(now, ttlSeconds) }, $unset: { statusCode: '', body: '' } },
  };
}

export function toIdempotencyRecord(doc: Doc): IdempotencyRecord {
  return doc.statusCode === undefined || doc.statusCode === null
    ? { state: 'in_progress', bodyHash: doc.bodyHash }
    : { state: 'done', bodyHash: doc.bodyHash, response: { statusCode: doc.statusCode, body: fromStoredJson(doc.body ?? null) } };
}

/** Idempotency keys in MongoDB, for deployments without Redis; a TTL index clears expired ones. */
export class MongoIdempotencyStore implements IdempotencyStore {
  constructor(private readonly store: MongoStore) {}

  private get keys() {
    return this.store.collection(COLLECTIONS.idempotencyKeys);
  }

  async claim(key: string, bodyHash: string, ttlSeconds: number): Promise<IdempotencyRecord | null> {
    const { filter, update } = idempotencyClaim(key, bodyHash, ttlSeconds, new Date());
    try {
      await this.keys.updateOne(filter, update, { upsert: true });
      return null;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const existing = await this.keys.findOne({ _id: key });
    // gone between the two (expired and swept): claim again
    return existing ? toIdempotencyRecord(existing) : this.claim(key, bodyHash, ttlSeconds);
  }

  async complete(key: string, bodyHash: string, response: StoredResponse, ttlSeconds: number): Promise<void> {
    await this.keys.updateOne(
      { _id: key, bodyHash },
      { $set: { statusCode: response.statusCode, body: toStoredJson(response.body ?? null), expiresAt: after(new Date(), ttlSeconds) } },
    );
  }

  async release(key: string): Promise<void> {
    await this.keys.deleteOne({ _id: key, statusCode: { $exists: false } });
  }
}

/** The store core.module binds when there is no Redis: guarded like the repositories. */
export function mongoIdempotencyStore(store: MongoStore): IdempotencyStore {
  return guardedRepository('idempotency', new MongoIdempotencyStore(store));
}
