import { BullModule, getQueueToken } from '@nestjs/bull';
import { BeforeApplicationShutdown, DynamicModule, Global, Inject, Injectable, Module, Provider } from '@nestjs/common';
import type Bull from 'bull';
import { JOB_QUEUE, JobQueue, QUEUE_JOB_STORE, QueueJobStore } from '@app/kernel';
import { BullJobQueue, BullJobQueueOptions, bullQueueOptions } from './bull/bull-job-queue';
import { EmbeddedJobQueue, EmbeddedJobQueueOptions } from './embedded/embedded-job-queue';

export interface QueueModuleOptions {
  /** Bull on this Redis when set; otherwise the embedded queue in the store (QUEUE_JOB_STORE, bound by the store module). */
  redisUrl?: string;
  /** Bull key prefix (default "bull"). */
  prefix?: string;
  bull?: Omit<BullJobQueueOptions, 'redisUrl' | 'prefix' | 'queues'>;
  /** Queues registered with @nestjs/bull up front (the pipeline's stages); others are made on first use. */
  queueNames?: string[];
  embedded?: EmbeddedJobQueueOptions;
}

// Runs before the store closes (onApplicationShutdown), so running jobs can record their outcome.
@Injectable()
class JobQueueCloser implements BeforeApplicationShutdown {
  constructor(@Inject(JOB_QUEUE) private readonly queue: JobQueue) {}
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close();
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
    return {
      module: QueueModule,
      imports: [BullModule.forRoot({ url: redisUrl, ...bullQueueOptions(bullOptions) }), BullModule.registerQueue(...names.map((name) => ({ name })))],
      providers: [bull, JobQueueCloser],
      exports: [JOB_QUEUE],
    };
  }
}
