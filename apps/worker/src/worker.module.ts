import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { IntegrationsModule } from '@app/integrations';
import { MetricsModule } from '@app/metrics';
import { DeliveryProvidersModule } from '@app/providers';
import { AppModuleOptions, CoreModule, queueModule, storeModule } from '../../api/src/core.module';
import { LifecycleLogger, loggerOptions } from '../../api/src/logging';
import { DeliveryWorkerModule } from './delivery-worker.module';
import { WorkerHeartbeat } from './worker-heartbeat';

/** Production-mode worker process: queues, store, providers and processors, no HTTP. */
@Module({})
export class WorkerModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        LoggerModule.forRoot(loggerOptions(options.config, { httpRoutes: false })),
        CoreModule.forRoot(options),
        storeModule(options),
        queueModule(options),
        DeliveryProvidersModule,
        IntegrationsModule,
        // Deliveries and reconciler counts of this process; queue depth is the api's to report.
        ...(options.config.metricsPort !== undefined ? [MetricsModule.forRoot({ port: options.config.metricsPort, host: options.config.host })] : []),
        DeliveryWorkerModule,
      ],
      providers: [LifecycleLogger, WorkerHeartbeat],
    };
  }
}
