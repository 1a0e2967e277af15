import { Global, Module } from '@nestjs/common';
import { INTEGRATION_CHECKER } from '@app/integrations';
import { ProviderIntegrationChecker } from './provider-integration.checker';

/** Binds the integrations context's INTEGRATION_CHECKER port to the provider adapters' live checks. */
@Global()
@Module({
  providers: [{ provide: INTEGRATION_CHECKER, useClass: ProviderIntegrationChecker }],
  exports: [INTEGRATION_CHECKER],
})
export class IntegrationChecksModule {}
