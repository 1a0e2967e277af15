/**
 * A small in-process cache for hot-path lookups (API keys, workflows): entries live `ttlMs`, and the
 * oldest is dropped past `maxEntries`. Staleness is bounded by the TTL, which is the point.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  /** Loads under way: a hundred concurrent misses of one key (an expiry under load) make one load. */
  private readonly loading = new Map<string, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.value;
    const inFlight = this.loading.get(key);
    if (inFlight) return inFlight;
    const loaded = load().then(
      (value) => {
        this.loading.delete(key);
        this.set(key, value);
        return value;
      },
      (error) => {
        this.loading.delete(key); // a failed load is not remembered: the next call tries again
        throw error;
      },
    );
    this.loading.set(key, loaded);
    return loaded;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
  }

  /** Forgets a key (this process changed what it caches). */
  delete(key: string): void {
    this.entries.delete(key);
  }
}
