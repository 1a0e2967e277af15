import { Module } from '@nestjs/common';
import { DeliveryModule } from '@app/delivery';
import { EventsController } from './events.controller';

/** HTTP adapter of the delivery context's trigger side: POST and DELETE /v1/events/trigger. */
@Module({ imports: [DeliveryModule], controllers: [EventsController] })
export class EventsHttpModule {}
