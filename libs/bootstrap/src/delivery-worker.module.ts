import { Module } from '@nestjs/common';
import { DeliveryModule } from '@app/delivery';
import { DeliveryProcessor } from './delivery.processor';
import { RetentionScheduler } from './retention.scheduler';

/** The queue processors and the retention purge; the worker process runs them, and so does the embedded process. */
@Module({ imports: [DeliveryModule], providers: [DeliveryProcessor, RetentionScheduler] })
export class DeliveryWorkerModule {}
