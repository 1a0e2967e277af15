import type Redis from 'ioredis';
import { CallBatcher, RateLimitHit, RateLimitStore } from '@app/kernel';

// Adds ARGV[1] hits to the window's counter and opens the window (PEXPIRE) when the counter is new.
// A counter found without expiry (PTTL -1, which this script never leaves) gets one too, so no key lives forever.
const HIT_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {count, ttl}`;

const COMMAND = 'notifyRateLimitHit';
type WithHitCommand = Redis & { [COMMAND](key: string, hits: number, windowMs: number): Promise<[number, number]> };

/**
 * Fixed-window counters in Redis, shared by every api process. One script call (EVALSHA) per key
 * and turn of the event loop: the hits that concurrent requests of one environment make together
 * are added at once, and each request gets its own place in the count.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly hits = new CallBatcher<{ windowMs: number; cost: number }, RateLimitHit>(async (group, calls) => {
    const key = group.slice(group.indexOf(':') + 1);
    const total = calls.reduce((sum, call) => sum + call.cost, 0);
    const [count, resetInMs] = await this.redis[COMMAND](this.prefix + key, total, calls[0].windowMs);
    let counted = count - total;
    return calls.map((call) => ({ count: (counted += call.cost), resetInMs }));
  });
  private readonly redis: WithHitCommand;

  constructor(
    redis: Redis,
    private readonly prefix = 'ratelimit:',
  ) {
    redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as WithHitCommand;
  }

  hit(key: string, windowMs: number, cost = 1): Promise<RateLimitHit> {
    // the window length is part of the group: one script call serves one window
    return this.hits.run(`${windowMs}:${key}`, { windowMs, cost });
  }
}
