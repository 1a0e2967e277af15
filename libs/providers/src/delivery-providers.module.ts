import { Global, Inject, Module, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { PROVIDER_REGISTRY, TEMPLATE_RENDERER } from '@app/delivery';
import { createProviderRegistry, InMemoryProviderRegistry } from './provider.registry';
import { StepTemplateRenderer } from './templates/step-template.renderer';

/** Binds the delivery context's ports to the adapters here: the provider registry and the template renderer. */
@Global()
@Module({
  providers: [
    {
      provide: PROVIDER_REGISTRY,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createProviderRegistry({ allowPrivateNetworkTargets: config.allowPrivateNetworkTargets }),
    },
    { provide: TEMPLATE_RENDERER, useFactory: () => new StepTemplateRenderer() },
  ],
  exports: [PROVIDER_REGISTRY, TEMPLATE_RENDERER],
})
export class DeliveryProvidersModule implements OnModuleDestroy {
  constructor(@Inject(PROVIDER_REGISTRY) private readonly registry: InMemoryProviderRegistry) {}

  onModuleDestroy(): Promise<void> {
    return this.registry.close();
  }
}
