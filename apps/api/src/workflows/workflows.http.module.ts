import { Module } from '@nestjs/common';
import { DeliveryModule } from '@app/delivery';
import { WorkflowsModule } from '@app/workflows';
import { NotificationGroupsController } from './notification-groups.controller';
import { NotificationTemplatesController, WorkflowsController } from './workflows.controller';
import { WorkflowsV2Controller } from './workflows-v2.controller';
import { LayoutsController } from './layouts.controller';

/**
 * HTTP adapter of the workflows context: /v1/workflows and its other name /v1/notification-templates,
 * the notification groups they are filed under, and /v2/workflows (with its step preview, delivery's
 * rendering), and /v2/layouts (the email layouts steps name), with their DTOs.
 */
@Module({
  imports: [WorkflowsModule, DeliveryModule],
  controllers: [WorkflowsController, NotificationTemplatesController, NotificationGroupsController, WorkflowsV2Controller, LayoutsController],
})
export class WorkflowsHttpModule {}
