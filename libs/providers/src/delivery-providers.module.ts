import { Global, Inject, Module, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { PROVIDER_REGISTRY, TEMPLATE_RENDERER } from '@app/delivery';
import { createProviderRegistry, InMemoryProviderRegistry } from './provider.registry';
import { StepTemplateRenderer } from './templates/step-template.renderer';
import { WEBHOOK_SENDER } from '@app/webhooks';
import { GuardedWebhookSender } from './webhooks/guarded-webhook.sender';

/** Binds the delivery context's ports to the adapters here: the provider registry and the template renderer; and the outbound webhooks' sender. */
@Global()
@Module({
  providers: [
    {
      provide: PROVIDER_REGISTRY,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createProviderRegistry({ allowPrivateNetworkTargets: config.allowPrivateNetworkTargets }),
    },
    { provide: TEMPLATE_RENDERER, useFactory: () => new StepTemplateRenderer() },
    { provide: WEBHOOK_SENDER, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new GuardedWebhookSender(config.allowPrivateNetworkTargets) },
  ],
  exports: [PROVIDER_REGISTRY, TEMPLATE_RENDERER, WEBHOOK_SENDER],
})
export class DeliveryProvidersModule implements OnModuleDestroy {
  constructor(@Inject(PROVIDER_REGISTRY) private readonly registry: InMemoryProviderRegistry) {}

  onModuleDestroy(): Promise<void> {
    return this.registry.close();
  }
}
