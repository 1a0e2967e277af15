import { DynamicModule, Global, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy, Optional } from '@nestjs/common';
import { IN_APP_DELIVERY_LISTENER } from '@app/delivery';
import { AnnounceInboxChanges, INBOX_SOCKET, InboxModule, InboxSocket, WakeSnoozedNotifications } from '@app/inbox';
import { RedisEmitterInboxSocket, SocketIoHub } from '@app/realtime';
import { queueKeyPrefix } from './core.module';
import { ServiceOptions } from './service-options';

/** socket.io's Redis channels of a deployment (the API processes' adapter and the workers' emitter). */
export const socketChannelPrefix = (options: ServiceOptions) => `${queueKeyPrefix(options)}:socket.io`;

/** The socket server and the Redis connections of the realtime adapters end with the process. */
class RealtimeCloser implements OnApplicationShutdown {
  constructor(
    @Optional() private readonly hub?: SocketIoHub,
    @Optional() private readonly emitter?: RedisEmitterInboxSocket,
  ) {}
  async onApplicationShutdown() {
    this.emitter?.close();
    await this.hub?.close();
  }
}

/** A worker without Redis (tests of the worker alone) reaches no socket. */
const NO_SOCKETS: InboxSocket = { emit: async () => undefined, listening: async () => new Set() };

/**
 * Where the Inbox's socket events go: an API process (and the embedded one) holds the socket.io
 * server (SocketIoHub, on Redis's adapter when REDIS_URL is set); a worker process emits through
 * Redis to whichever API process holds the subscriber's sockets.
 */
@Global()
@Module({})
export class InboxSocketModule {
  static forApi(options: ServiceOptions): DynamicModule {
    const { redisUrl, redisCommandTimeoutMs } = options.config;
    const hub = {
      provide: SocketIoHub,
      useFactory: () => new SocketIoHub({ redisUrl, channelPrefix: socketChannelPrefix(options), commandTimeoutMs: redisCommandTimeoutMs }),
    };
    return {
      module: InboxSocketModule,
      providers: [hub, RealtimeCloser, { provide: INBOX_SOCKET, useExisting: SocketIoHub }],
      exports: [SocketIoHub, INBOX_SOCKET],
    };
  }

  static forWorker(options: ServiceOptions): DynamicModule {
    const { redisUrl, redisCommandTimeoutMs } = options.config;
    if (!redisUrl) return { module: InboxSocketModule, providers: [{ provide: INBOX_SOCKET, useValue: NO_SOCKETS }], exports: [INBOX_SOCKET] };
    const emitter = {
      provide: RedisEmitterInboxSocket,
      useFactory: () => new RedisEmitterInboxSocket({ redisUrl, channelPrefix: socketChannelPrefix(options), commandTimeoutMs: redisCommandTimeoutMs }),
    };
    return {
      module: InboxSocketModule,
      providers: [emitter, RealtimeCloser, { provide: INBOX_SOCKET, useExisting: RedisEmitterInboxSocket }],
      exports: [INBOX_SOCKET],
    };
  }
}

/** Snoozes end within this long of their time. */
export const SNOOZE_SWEEP_EVERY_MS = 2_000;

/** Wakes due snoozes in each process that runs the workers (each woken message goes to one sweeper). */
@Injectable()
export class SnoozeSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SnoozeSweeper');
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(private readonly wake: WakeSnoozedNotifications) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.run(), SNOOZE_SWEEP_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.wake.execute();
    } catch (error) {
      this.logger.warn(`Snoozed notifications not woken this time: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
  }
}

/** The Inbox as the delivery pipeline's in-app listener: new in-app messages reach the subscriber's sockets. */
@Global()
@Module({
  imports: [InboxModule],
  providers: [{ provide: IN_APP_DELIVERY_LISTENER, useExisting: AnnounceInboxChanges }],
  exports: [IN_APP_DELIVERY_LISTENER, InboxModule],
})
export class InboxListenerModule {}

/** The sweeper, for processes that run the workers. */
@Module({ imports: [InboxModule], providers: [SnoozeSweeper] })
export class InboxWorkerModule {}
