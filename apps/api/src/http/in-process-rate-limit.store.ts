import { Clock, RateLimitHit, RateLimitStore } from '@app/kernel';

/** Past this many keys, ended windows are swept on the next hit (keys are environments: few). */
const SWEEP_ABOVE_KEYS = 10_000;

/**
 * Fixed-window counters in this process: right for the embedded mode, where one process serves
 * every request. Production mode counts in Redis (RedisRateLimitStore) so all api processes share them,
 * and here while Redis does not answer (TriggerRateLimitGuard).
 */
export class InProcessRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(private readonly clock: Clock) {}

  async hit(key: string, windowMs: number, cost = 1): Promise<RateLimitHit> {
    const now = this.clock.now().getTime();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      if (!window && this.windows.size >= SWEEP_ABOVE_KEYS) this.sweep(now);
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += cost;
    return { count: window.count, resetInMs: window.endsAt - now };
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}
