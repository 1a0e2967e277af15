import { Module } from '@nestjs/common';
import { DeliveryModule } from '@app/delivery';
import { WebhooksModule } from '@app/webhooks';
import { DeliveryProcessor } from './delivery.processor';
import { RetentionScheduler } from './retention.scheduler';
import { WebhookProcessor } from './webhook.processor';
import { InboundMailReceiver } from './inbound-mail.receiver';
import { InboxWorkerModule } from './inbox-realtime.module';
import { StoreOutage } from './store-outage';

/**
 * The queue processors (pipeline and outbound webhooks), the inbound mail receiver (when INBOUND_MAIL_PORT is set),
 * the Inbox's realtime announcements and snooze wake-ups, and the retention purge; the worker process runs them, and so does the embedded process.
 */
@Module({
  imports: [DeliveryModule, WebhooksModule, InboxWorkerModule],
  providers: [StoreOutage, DeliveryProcessor, WebhookProcessor, InboundMailReceiver, RetentionScheduler],
})
export class DeliveryWorkerModule {}
