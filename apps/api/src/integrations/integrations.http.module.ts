import { Module } from '@nestjs/common';
import { DeliveryModule } from '@app/delivery';
import { IntegrationsModule } from '@app/integrations';
import { IntegrationChecksModule } from '@app/providers';
import { IntegrationsController } from './integrations.controller';

/**
 * HTTP adapter of the integrations context: controllers and their DTOs; live checks from the provider
 * adapters; the delivery context says which providers' event webhooks are read.
 */
@Module({ imports: [IntegrationsModule, IntegrationChecksModule, DeliveryModule], controllers: [IntegrationsController] })
export class IntegrationsHttpModule {}
