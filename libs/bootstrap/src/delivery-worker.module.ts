import { Module } from '@nestjs/common';
import { DeliveryModule } from '@app/delivery';
import { WebhooksModule } from '@app/webhooks';
import { DeliveryProcessor } from './delivery.processor';
import { RetentionScheduler } from './retention.scheduler';
import { WebhookProcessor } from './webhook.processor';

/** The queue processors (pipeline and outbound webhooks) and the retention purge; the worker process runs them, and so does the embedded process. */
@Module({ imports: [DeliveryModule, WebhooksModule], providers: [DeliveryProcessor, WebhookProcessor, RetentionScheduler] })
export class DeliveryWorkerModule {}
