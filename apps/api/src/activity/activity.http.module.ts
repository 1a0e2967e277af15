import { Module } from '@nestjs/common';
import { DeliveryModule } from '@app/delivery';
import { InboundWebhooksController } from './inbound-webhooks.controller';
import { SuppressionsController } from './suppressions.controller';

/** HTTP adapter of delivery activity: vendors' event webhooks in, and the suppression list. */
@Module({ imports: [DeliveryModule], controllers: [InboundWebhooksController, SuppressionsController] })
export class ActivityHttpModule {}
