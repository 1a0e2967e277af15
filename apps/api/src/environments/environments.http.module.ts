import { Module } from '@nestjs/common';
import { EnvironmentsModule } from '@app/environments';
import { WorkflowsModule } from '@app/workflows';
import { EnvironmentPublishController } from './environment-publish.controller';
import { EnvironmentsController } from './environments.controller';
import { EnvironmentVariablesController } from './environment-variables.controller';

/**
 * HTTP adapter of the environments context: /v1/environments (list, create, update, delete, me), and
 * publishing workflows between environments: /v2/environments/{id}/diff, /publish and /tags (the
 * one-workflow form, PUT /v2/workflows/{workflowId}/sync, is the v2 workflows controller's); the
 * environment variables, /v1/environment-variables.
 */
@Module({ imports: [EnvironmentsModule, WorkflowsModule], controllers: [EnvironmentsController, EnvironmentPublishController, EnvironmentVariablesController] })
export class EnvironmentsHttpModule {}
