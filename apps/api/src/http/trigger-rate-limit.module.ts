import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import type Redis from 'ioredis';
import { CLOCK, Clock, RATE_LIMIT_STORE } from '@app/kernel';
import { queueKeyPrefix, REDIS_CONNECTION, ServiceOptions } from '@app/bootstrap';
import { RedisRateLimitStore } from '@app/redis';
import { InProcessRateLimitStore } from './in-process-rate-limit.store';
import { BulkTriggerRateLimitGuard, TriggerRateLimitGuard } from './trigger-rate-limit.guard';

/**
 * The counters behind TriggerRateLimitGuard: in Redis under `<QUEUE_PREFIX>:ratelimit:` when
 * REDIS_URL is set (shared by every api process), else in this process (the embedded mode); never
 * touched with TRIGGER_RATE_LIMIT=0. Global, so the guard resolves in the events module.
 */
@Global()
@Module({})
export class TriggerRateLimitModule {
  static forRoot(options: ServiceOptions): DynamicModule {
    const { config } = options;
    const store: Provider = config.redisUrl
      ? {
          provide: RATE_LIMIT_STORE,
          inject: [REDIS_CONNECTION],
          useFactory: (redis: Redis) => new RedisRateLimitStore(redis, `${queueKeyPrefix(options)}:ratelimit:`),
        }
      : { provide: RATE_LIMIT_STORE, inject: [CLOCK], useFactory: (clock: Clock) => new InProcessRateLimitStore(clock) };
    return {
      module: TriggerRateLimitModule,
      providers: [store, TriggerRateLimitGuard, BulkTriggerRateLimitGuard],
      exports: [RATE_LIMIT_STORE, TriggerRateLimitGuard, BulkTriggerRateLimitGuard],
    };
  }
}
