/** One request as counted against its key's current window. */
export interface RateLimitHit {
  /** Requests counted in the current window, this one (all of its cost) included. */
  count: number;
  /** Milliseconds until the window ends and counting starts again from zero. */
  resetInMs: number;
}

/**
 * Counts requests per key in fixed windows. Every process that serves a key must see the same
 * count: Redis in production mode (any number of api processes), the process itself in embedded mode.
 */
export interface RateLimitStore {
  /**
   * Counts `cost` requests (default 1; a bulk trigger counts each of its events) against `key`,
   * atomically: concurrent callers each get a distinct count, their own hits included. The first
   * request of a key (or the first after its window ended) opens a window of `windowMs`.
   */
  hit(key: string, windowMs: number, cost?: number): Promise<RateLimitHit>;
}
export const RATE_LIMIT_STORE = Symbol('RateLimitStore');
