import { Module } from '@nestjs/common';
import { WebhooksModule } from '@app/webhooks';
import { OutboundWebhooksController } from './outbound-webhooks.controller';

/** HTTP adapter of the outbound webhooks context. */
@Module({ imports: [WebhooksModule], controllers: [OutboundWebhooksController] })
export class OutboundWebhooksHttpModule {}
