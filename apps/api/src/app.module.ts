import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TerminusModule } from '@nestjs/terminus';
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
import { FANOUT_QUEUE, STEPS_QUEUE } from '@app/delivery';
import { EnvironmentsModule } from '@app/environments';
import { MetricsModule } from '@app/metrics';
import { WEBHOOKS_QUEUE } from '@app/webhooks';
import { DeliveryProvidersModule } from '@app/providers';
import { BootstrapService } from './bootstrap.service';
import { HealthController } from './health/health.controller';
import { MetricsController } from './metrics/metrics.controller';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { ApiKeyGuard } from './http/api-key.guard';
import { ApiKeyStrategy } from './http/api-key.strategy';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { FairAdmissionInterceptor } from './http/fair-admission.interceptor';
import { ApiRequestInterceptor } from './http/api-request.interceptor';
import { IdempotencyInterceptor } from './http/idempotency.interceptor';
import { TriggerRateLimitModule } from './http/trigger-rate-limit.module';
import { IntegrationsHttpModule } from './integrations/integrations.http.module';
import { SubscribersHttpModule } from './subscribers/subscribers.http.module';
import { TopicsHttpModule } from './topics/topics.http.module';
import { TenantsHttpModule } from './tenants/tenants.http.module';
import { ContextsHttpModule } from './contexts/contexts.http.module';
import { WorkflowsHttpModule } from './workflows/workflows.http.module';
import { TranslationsHttpModule } from './translations/translations.http.module';
import { EventsHttpModule } from './events/events.http.module';
import { MessagesHttpModule } from './messages/messages.http.module';
import { NotificationsHttpModule } from './notifications/notifications.http.module';
import { OutboundWebhooksHttpModule } from './webhooks/outbound-webhooks.http.module';
import { ActivityHttpModule } from './activity/activity.http.module';
import { InboxHttpModule } from './inbox/inbox.http.module';
import { EnvironmentsHttpModule } from './environments/environments.http.module';
import { NotSupportedHttpModule } from './unsupported/not-supported.http.module';

export interface AppModuleOptions extends ServiceOptions {
  /** Also run the queue processors in this process (the embedded mode). */
  runWorker?: boolean;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    const role: ProcessRole = { servesRequests: true, consumes: options.runWorker === true };
    return {
      module: AppModule,
      imports: [
        // No per-request child logger and request context: the one line a request can write (an
        // unhandled error) names its path itself.
        LoggerModule.forRoot(loggerOptions(options.config)),
        CoreModule.forRoot(options, role),
        storeModule(options),
        PassportModule,
        TerminusModule,
        EnvironmentsModule,
        IntegrationsHttpModule,
        SubscribersHttpModule,
        TopicsHttpModule,
        TenantsHttpModule,
        ContextsHttpModule,
        WorkflowsHttpModule,
        TranslationsHttpModule,
        TriggerRateLimitModule.forRoot(options),
        EventsHttpModule,
        MessagesHttpModule,
        NotificationsHttpModule,
        OutboundWebhooksHttpModule,
        ActivityHttpModule,
        InboxSocketModule.forApi(options),
        InboxListenerModule,
        InboxHttpModule,
        EnvironmentsHttpModule,
        // Last: its routes never shadow a served one (e.g. GET /v1/environments/me before PUT /v1/environments/:id).
        NotSupportedHttpModule,
        queueModule(options, role),
        // The api serves queue depth: the queues are shared, so one reading is enough (workers need not).
        MetricsModule.forRoot({
          queueNames: [FANOUT_QUEUE, STEPS_QUEUE, WEBHOOKS_QUEUE],
          port: options.config.metricsPort,
          host: options.config.host,
          token: options.config.metricsToken,
        }),
        DeliveryProvidersModule,
        ...(options.runWorker ? [DeliveryWorkerModule] : []),
      ],
      // With METRICS_PORT the metrics leave the public port for a server of their own.
      controllers: [HealthController, ...(options.config.metricsPort === undefined ? [MetricsController] : [])],
      providers: [
        ApiKeyStrategy,
        BootstrapService,
        LifecycleLogger,
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        FairAdmissionInterceptor,
        IdempotencyInterceptor,
        EnvelopeInterceptor,
        { provide: APP_INTERCEPTOR, useClass: ApiRequestInterceptor },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
