import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown, Optional, Provider } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '@app/config';
import { CLOCK, HEALTH_PROBES, HealthProbe, IDEMPOTENCY_STORE, OutageLog, systemClock } from '@app/kernel';
import { FANOUT_QUEUE, STEPS_QUEUE, VENDOR_PACE } from '@app/delivery';
import { QueueModule } from '@app/queue';
import { WEBHOOKS_QUEUE } from '@app/webhooks';
import { API_KEY_SEALER, ApiKeySealer } from '@app/environments';
import { JoseSubscriberTokens, SUBSCRIBER_TOKENS } from '@app/inbox';
import { AesGcmCredentialCipher } from '@app/integrations';
import { FlexibleVendorPace, RedisHealthProbe, RedisIdempotencyStore } from '@app/redis';
import { REDIS_CONNECTION } from './redis.tokens';
import { ServiceOptions } from './service-options';
import { storeWiring } from './store-wiring';

class RedisCloser implements OnApplicationShutdown {
  constructor(@Optional() @Inject(REDIS_CONNECTION) private readonly redis?: Redis) {}
  async onApplicationShutdown() {
    await this.redis?.quit().catch(() => undefined);
  }
}

/** What a process does, where that changes its wiring. */
export interface ProcessRole {
  /** It answers HTTP requests: the Redis commands requests wait for are bounded by REDIS_COMMAND_TIMEOUT_MS. */
  servesRequests: boolean;
  /**
   * It consumes the queues: its Bull commands are not bounded (a job finished while Redis stalls is
   * recorded once Redis answers, not failed by a timeout).
   */
  consumes: boolean;
}

/** The job queue: Bull (registered through @nestjs/bull) when REDIS_URL is set, else the embedded one on the store. */
export function queueModule(options: ServiceOptions, role: ProcessRole): DynamicModule {
  const { lockMs, stalledCheckMs } = options.config.queueLock;
  return QueueModule.forRoot({
    redisUrl: options.config.redisUrl,
    prefix: queueKeyPrefix(options),
    bull: { lockDurationMs: lockMs, stalledIntervalMs: stalledCheckMs },
    embedded: { leaseMs: lockMs, stalledCheckIntervalMs: stalledCheckMs },
    queueNames: [FANOUT_QUEUE, STEPS_QUEUE, WEBHOOKS_QUEUE],
    commandTimeoutMs: role.servesRequests && !role.consumes ? options.config.redisCommandTimeoutMs : undefined,
  });
}

/** The Bull key prefix: QUEUE_PREFIX (default "bull"), behind a test run's own prefix if any. */
export function queueKeyPrefix(options: ServiceOptions): string {
  return `${options.redisKeyPrefix ?? ''}${options.config.queuePrefix}`;
}

function vendorCircuit(config: AppConfig) {
  return { circuitFailures: config.vendorCircuit.failures, circuitOpenMs: config.vendorCircuit.openMs };
}

/** Process-wide pieces every context uses: configuration, clock, Redis, idempotency store, health probes. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(options: ServiceOptions, role: ProcessRole = { servesRequests: false, consumes: false }): DynamicModule {
    const { config } = options;
    const store = storeWiring(options);
    const providers: Provider[] = [
      { provide: APP_CONFIG, useValue: config },
      { provide: CLOCK, useValue: options.clock ?? systemClock },
      RedisCloser,
      // API key secrets are sealed with the store's encryption key, as integration credentials are.
      {
        provide: API_KEY_SEALER,
        useFactory: (): ApiKeySealer => {
          const cipher = new AesGcmCredentialCipher(config.encryptionKey);
          return { seal: (secret) => cipher.encrypt(secret), open: (sealed) => cipher.decrypt(sealed) };
        },
      },
      { provide: SUBSCRIBER_TOKENS, useFactory: () => new JoseSubscriberTokens(config.inboxTokenSecret, config.inboxTokenTtlSeconds) },
      {
        provide: HEALTH_PROBES,
        inject: [store.client, { token: REDIS_CONNECTION, optional: true }],
        useFactory: (client: unknown, redis?: Redis): HealthProbe[] => [store.healthProbe(client), ...(redis ? [new RedisHealthProbe(redis)] : [])],
      },
    ];
    if (config.redisUrl) {
      providers.push(
        // A request waits for idempotency keys, rate-limit counters and the health check this long at most.
        {
          provide: REDIS_CONNECTION,
          useFactory: () => {
            const redis = new Redis(config.redisUrl!, {
              maxRetriesPerRequest: 3,
              lazyConnect: false,
              commandTimeout: role.servesRequests ? config.redisCommandTimeoutMs : undefined,
            });
            // Without a listener ioredis prints each failed reconnection; the health check tells the rest.
            const outage = new OutageLog(new Logger('Redis'), {
              down: (error) => `Redis connection lost (${error.message}); reconnecting, one line when it is back`,
              up: 'Redis connection back',
            });
            return redis.on('error', (error: Error) => outage.failed(error)).on('ready', () => outage.succeeded());
          },
        },
        {
          provide: IDEMPOTENCY_STORE,
          inject: [REDIS_CONNECTION],
          useFactory: (redis: Redis) => new RedisIdempotencyStore(redis, `${queueKeyPrefix(options)}:idempotency:`),
        },
        // Every worker keeps one integration's pace together.
        {
          provide: VENDOR_PACE,
          inject: [REDIS_CONNECTION],
          useFactory: (redis: Redis) => new FlexibleVendorPace(redis, { ...vendorCircuit(config), prefix: `${queueKeyPrefix(options)}:` }),
        },
      );
    } else {
      providers.push(
        store.idempotencyStore,
        // The embedded mode is one process: it keeps the pace alone.
        { provide: VENDOR_PACE, useFactory: () => new FlexibleVendorPace(undefined, vendorCircuit(config)) },
      );
    }
    return {
      module: CoreModule,
      providers,
      exports: [
        APP_CONFIG,
        CLOCK,
        IDEMPOTENCY_STORE,
        VENDOR_PACE,
        HEALTH_PROBES,
        API_KEY_SEALER,
        SUBSCRIBER_TOKENS,
        ...(config.redisUrl ? [REDIS_CONNECTION] : []),
      ],
    };
  }
}
