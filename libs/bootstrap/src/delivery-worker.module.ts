import { Module } from '@nestjs/common';
import { DeliveryModule } from '@app/delivery';
import { DeliveryProcessor } from './delivery.processor';
import { RetentionScheduler } from './retention.scheduler';
import { InboxWorkerModule } from './inbox-realtime.module';

/** The queue processors and the retention purge; the worker process runs them, and so does the embedded process. */
@Module({ imports: [DeliveryModule, InboxWorkerModule], providers: [DeliveryProcessor, RetentionScheduler] })
export class DeliveryWorkerModule {}
