import { Module } from '@nestjs/common';
import { DeliveryModule } from '@app/delivery';
import { DeliveryProcessor } from './delivery.processor';

/** The queue processors alone; the worker process runs them, and so does the embedded process. */
@Module({ imports: [DeliveryModule], providers: [DeliveryProcessor] })
export class DeliveryWorkerModule {}
