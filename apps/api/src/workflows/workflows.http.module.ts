import { Module } from '@nestjs/common';
import { WorkflowsModule } from '@app/workflows';
import { NotificationGroupsController } from './notification-groups.controller';
import { NotificationTemplatesController, WorkflowsController } from './workflows.controller';

/**
 * HTTP adapter of the workflows context: /v1/workflows and its other name /v1/notification-templates,
 * and the notification groups they are filed under, with their DTOs.
 */
@Module({ imports: [WorkflowsModule], controllers: [WorkflowsController, NotificationTemplatesController, NotificationGroupsController] })
export class WorkflowsHttpModule {}
