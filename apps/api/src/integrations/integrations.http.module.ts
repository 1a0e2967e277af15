import { Module } from '@nestjs/common';
import { IntegrationsModule } from '@app/integrations';
import { IntegrationChecksModule } from '@app/providers';
import { IntegrationsController } from './integrations.controller';

/** HTTP adapter of the integrations context: controllers and their DTOs; live checks from the provider adapters. */
@Module({ imports: [IntegrationsModule, IntegrationChecksModule], controllers: [IntegrationsController] })
export class IntegrationsHttpModule {}
