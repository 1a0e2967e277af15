import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { JOB_QUEUE, JobQueue, METRICS } from '@app/kernel';
import { MetricsServer } from './metrics-server';
import { PromMetrics } from './prom-metrics';

export interface MetricsModuleOptions {
  /** Queues whose depth and oldest waiting job each scrape reads (from JOB_QUEUE, which must be bound). */
  queueNames?: string[];
  /** Serve `GET /metrics` on this port with a bare HTTP server (a process without the API: the worker). */
  port?: number;
  /** Address that server listens on (default: all). */
  host?: string;
  /** Node process metrics (default true). */
  defaultMetrics?: boolean;
}

/** Binds METRICS (the use cases' port) and PromMetrics (the registry, for whatever serves it) for the whole app. */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(options: MetricsModuleOptions = {}): DynamicModule {
    const names = options.queueNames ?? [];
    const providers: Provider[] = [
      {
        provide: PromMetrics,
        inject: names.length ? [JOB_QUEUE] : [],
        useFactory: (queue?: JobQueue) => new PromMetrics({ defaultMetrics: options.defaultMetrics, queues: queue && { queue, names } }),
      },
      { provide: METRICS, useExisting: PromMetrics },
    ];
    if (options.port !== undefined) {
      providers.push({
        provide: MetricsServer,
        inject: [PromMetrics],
        useFactory: (metrics: PromMetrics) => new MetricsServer(metrics, options.port!, options.host),
      });
    }
    return { module: MetricsModule, providers, exports: [PromMetrics, METRICS] };
  }
}
