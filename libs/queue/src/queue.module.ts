import { BullModule, getQueueToken } from '@nestjs/bull';
import { BeforeApplicationShutdown, DynamicModule, Global, Inject, Injectable, Module, Optional, Provider } from '@nestjs/common';
import type Bull from 'bull';
import { JOB_QUEUE, JobQueue, QUEUE_JOB_STORE, QueueJobStore } from '@app/kernel';
import { BullJobQueue, BullJobQueueOptions, bullQueueOptions } from './bull/bull-job-queue';
import { TimedBullClients } from './bull/bull-clients';
import { EmbeddedJobQueue, EmbeddedJobQueueOptions } from './embedded/embedded-job-queue';

export interface QueueModuleOptions {
  /** Bull on this Redis when set; otherwise the embedded queue in the store (QUEUE_JOB_STORE, bound by the store module). */
  redisUrl?: string;
  /** Bull key prefix (default "bull"). */
  prefix?: string;
  bull?: Omit<BullJobQueueOptions, 'redisUrl' | 'prefix' | 'queues'>;
  /** Queues registered with @nestjs/bull up front (the pipeline's stages); others are made on first use. */
  queueNames?: string[];
  /**
   * Bull: how long a command of the connection that adds and reads jobs may wait for Redis (those
   * queues' blocking consumer is never bounded). For processes that do not consume: a consumer's
   * completion that timed out would fail a finished job. Unset: no bound.
   */
  commandTimeoutMs?: number;
  embedded?: EmbeddedJobQueueOptions;
}

// Runs before the store closes (onApplicationShutdown), so running jobs can record their outcome.
@Injectable()
class JobQueueCloser implements BeforeApplicationShutdown {
  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Optional() private readonly clients?: TimedBullClients,
  ) {}
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close();
    this.clients?.close();
  }
}

/** Binds JOB_QUEUE: Bull when a Redis URL is configured, else the embedded queue on the store's QUEUE_JOB_STORE. */
@Global()
@Module({})
export class QueueModule {
  static forRoot(options: QueueModuleOptions = {}): DynamicModule {
    const { redisUrl } = options;
    if (!redisUrl) {
      const embedded: Provider = {
        provide: JOB_QUEUE,
        inject: [QUEUE_JOB_STORE],
        useFactory: (store: QueueJobStore) => new EmbeddedJobQueue(store, options.embedded),
      };
      return { module: QueueModule, providers: [embedded, JobQueueCloser], exports: [JOB_QUEUE] };
    }
    // Bull through @nestjs/bull: the module owns the Redis connections of the registered queues.
    const bullOptions = { ...options.bull, prefix: options.prefix };
    const names = options.queueNames ?? [];
    const bull: Provider = {
      provide: JOB_QUEUE,
      inject: names.map((name) => getQueueToken(name)),
      useFactory: (...queues: Bull.Queue[]) =>
        new BullJobQueue({ ...bullOptions, redisUrl, queues: Object.fromEntries(names.map((name, i) => [name, queues[i]])) }),
    };
    const clients = options.commandTimeoutMs === undefined ? undefined : new TimedBullClients(options.commandTimeoutMs);
    return {
      module: QueueModule,
      imports: [
        BullModule.forRoot({ url: redisUrl, ...bullQueueOptions(bullOptions), ...(clients ? { createClient: clients.create } : {}) }),
        BullModule.registerQueue(...names.map((name) => ({ name }))),
      ],
      providers: [bull, JobQueueCloser, ...(clients ? [{ provide: TimedBullClients, useValue: clients }] : [])],
      exports: [JOB_QUEUE],
    };
  }
}
