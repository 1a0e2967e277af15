import { Module } from '@nestjs/common';
import { EnvironmentsModule } from '@app/environments';
import { WorkflowsModule } from '@app/workflows';
import { WorkflowSyncController } from '../workflows/workflow-sync.controller';
import { EnvironmentPublishController } from './environment-publish.controller';
import { EnvironmentsController } from './environments.controller';

/**
 * HTTP adapter of the environments context: /v1/environments (list, create, update, delete, me), and
 * publishing workflows between environments: /v2/environments/{id}/diff, /publish, /tags and the
 * one-workflow form, PUT /v2/workflows/{workflowId}/sync.
 */
@Module({ imports: [EnvironmentsModule, WorkflowsModule], controllers: [EnvironmentsController, EnvironmentPublishController, WorkflowSyncController] })
export class EnvironmentsHttpModule {}
