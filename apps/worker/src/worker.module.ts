import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import {
  CoreModule,
  DeliveryWorkerModule,
  InboxListenerModule,
  InboxSocketModule,
  LifecycleLogger,
  loggerOptions,
  ProcessRole,
  queueModule,
  ServiceOptions,
  storeModule,
} from '@app/bootstrap';
import { IntegrationsModule } from '@app/integrations';
import { MetricsModule } from '@app/metrics';
import { DeliveryProvidersModule } from '@app/providers';
import { WorkerHeartbeat } from './worker-heartbeat';

const WORKER_ROLE: ProcessRole = { servesRequests: false, consumes: true };

/** Production-mode worker process: queues, store, providers and processors, no HTTP. */
@Module({})
export class WorkerModule {
  static forRoot(options: ServiceOptions): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        LoggerModule.forRoot(loggerOptions(options.config)),
        CoreModule.forRoot(options, WORKER_ROLE),
        storeModule(options),
        queueModule(options, WORKER_ROLE),
        DeliveryProvidersModule,
        IntegrationsModule,
        // Deliveries and reconciler counts of this process; queue depth is the api's to report.
        ...(options.config.metricsPort !== undefined
          ? [MetricsModule.forRoot({ port: options.config.metricsPort, host: options.config.host, token: options.config.metricsToken })]
          : []),
        InboxSocketModule.forWorker(options),
        InboxListenerModule,
        DeliveryWorkerModule,
      ],
      providers: [LifecycleLogger, WorkerHeartbeat],
    };
  }
}
