import { Module } from '@nestjs/common';
import { DeliveryModule } from '@app/delivery';
import { NotificationsController } from './notifications.controller';

/** HTTP adapter of the delivery context's activity feed: GET /v1/notifications and /v1/notifications/{id}. */
@Module({ imports: [DeliveryModule], controllers: [NotificationsController] })
export class NotificationsHttpModule {}
