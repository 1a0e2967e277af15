import { Module } from '@nestjs/common';
import { WorkflowsModule } from '@app/workflows';
import { WorkflowsController } from './workflows.controller';

/** HTTP adapter of the workflows context: controllers and their DTOs. */
@Module({ imports: [WorkflowsModule], controllers: [WorkflowsController] })
export class WorkflowsHttpModule {}
