export interface StoredResponse {
  statusCode: number;
  body: unknown;
}

export type IdempotencyRecord = { state: 'in_progress'; bodyHash: string } | { state: 'done'; bodyHash: string; response: StoredResponse };

/** Holds Idempotency-Key claims: Redis when configured, else the store. */
export interface IdempotencyStore {
  /** Claims the key atomically; returns the existing record when someone already holds it. */
  claim(key: string, bodyHash: string, ttlSeconds: number): Promise<IdempotencyRecord | null>;
  complete(key: string, bodyHash: string, response: StoredResponse, ttlSeconds: number): Promise<void>;
  release(key: string): Promise<void>;
}
export const IDEMPOTENCY_STORE = Symbol('IdempotencyStore');
