import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { JOB_QUEUE, JobQueue, METRICS } from '@app/kernel';
import { MetricsAccess } from './metrics-access';
import { MetricsServer } from './metrics-server';
import { PromMetrics } from './prom-metrics';

export interface MetricsModuleOptions {
  /** Queues whose depth and oldest waiting job each scrape reads (from JOB_QUEUE, which must be bound). */
  queueNames?: string[];
  /** Serve `GET /metrics` on this port with a bare HTTP server (METRICS_PORT). */
  port?: number;
  /** Address that server listens on (default: all). */
  host?: string;
  /** Scrapes must send `Authorization: Bearer <token>` (METRICS_TOKEN), wherever the metrics are served. */
  token?: string;
  /** Node process metrics (default true). */
  defaultMetrics?: boolean;
}

/** Binds METRICS (the use cases' port), PromMetrics (the registry) and MetricsAccess (who may scrape) for whatever serves them. */
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
      { provide: MetricsAccess, useValue: new MetricsAccess(options.token) },
    ];
    if (options.port !== undefined) {
      providers.push({
        provide: MetricsServer,
        inject: [PromMetrics, MetricsAccess],
        useFactory: (metrics: PromMetrics, access: MetricsAccess) => new MetricsServer(metrics, access, options.port!, options.host),
      });
    }
    return { module: MetricsModule, providers, exports: [PromMetrics, METRICS, MetricsAccess] };
  }
}
