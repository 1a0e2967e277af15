import { Module } from '@nestjs/common';
import { DeliveryModule } from '@app/delivery';
import { ExecutionDetailsController } from './execution-details.controller';
import { NotificationsController } from './notifications.controller';

/** HTTP adapter of the delivery context's activity feed: GET /v1/notifications, /v1/notifications/{id} and /v1/execution-details. */
@Module({ imports: [DeliveryModule], controllers: [NotificationsController, ExecutionDetailsController] })
export class NotificationsHttpModule {}
