import { Global, Inject, Module, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { DELIVERY_EVENT_OPTIONS, HTTP_REQUEST_SENDER, PROVIDER_REGISTRY, SUBSCRIPTION_CONFIRMER, TEMPLATE_RENDERER, VENDOR_EVENT_SOURCES } from '@app/delivery';
import { GuardedHttpRequestSender } from './http/guarded-http-request.sender';
import { GuardedSubscriptionConfirmer } from './inbound/guarded-subscription.confirmer';
import { VendorEventSourceRegistry } from './inbound/vendor-event-sources';
import { createProviderRegistry, InMemoryProviderRegistry } from './provider.registry';
import { StepTemplateRenderer } from './templates/step-template.renderer';
import { WEBHOOK_SENDER } from '@app/webhooks';
import { GuardedWebhookSender } from './webhooks/guarded-webhook.sender';

/**
 * Binds the delivery context's ports to the adapters here: the provider registry, the template renderer, the HTTP request
 * steps' sender, the vendor event sources and the SNS subscription confirmer; and the outbound webhooks' sender.
 */
@Global()
@Module({
  providers: [
    {
      provide: PROVIDER_REGISTRY,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createProviderRegistry({ allowPrivateNetworkTargets: config.allowPrivateNetworkTargets }),
    },
    { provide: TEMPLATE_RENDERER, useFactory: () => new StepTemplateRenderer() },
    {
      provide: HTTP_REQUEST_SENDER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new GuardedHttpRequestSender(config.allowPrivateNetworkTargets),
    },
    { provide: WEBHOOK_SENDER, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new GuardedWebhookSender(config.allowPrivateNetworkTargets) },
    { provide: VENDOR_EVENT_SOURCES, useFactory: () => new VendorEventSourceRegistry() },
    {
      provide: SUBSCRIPTION_CONFIRMER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new GuardedSubscriptionConfirmer(config.allowPrivateNetworkTargets),
    },
    { provide: DELIVERY_EVENT_OPTIONS, inject: [APP_CONFIG], useFactory: (config: AppConfig) => ({ suppressAddresses: config.suppressBouncedAddresses }) },
  ],
  exports: [PROVIDER_REGISTRY, TEMPLATE_RENDERER, HTTP_REQUEST_SENDER, WEBHOOK_SENDER, VENDOR_EVENT_SOURCES, SUBSCRIPTION_CONFIRMER, DELIVERY_EVENT_OPTIONS],
})
export class DeliveryProvidersModule implements OnModuleDestroy {
  constructor(@Inject(PROVIDER_REGISTRY) private readonly registry: InMemoryProviderRegistry) {}

  onModuleDestroy(): Promise<void> {
    return this.registry.close();
  }
}
