import type Redis from 'ioredis';
import { HealthProbe } from '@app/kernel';

/** Redis answers a PING. */
export class RedisHealthProbe implements HealthProbe {
  readonly name = 'redis';

  constructor(private readonly redis: Redis) {}

  async ping(): Promise<void> {
    await this.redis.ping();
  }
}
