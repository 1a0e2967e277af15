import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope } from '@app/kernel';
import { WorkflowNotFoundError } from '../../domain/errors';
import { WORKFLOW_REPOSITORY, WorkflowRepository } from '../../ports/workflow.repository.port';

export interface DeleteWorkflowCommand {
  scope: EnvironmentScope;
  /** Internal `_id` or trigger identifier. */
  workflowId: string;
  deletedBy: string;
}

/** Soft delete, as Novu: the record stays for the messages that embed it; its identifier is freed. */
@Injectable()
export class DeleteWorkflow {
  constructor(
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, workflowId, deletedBy }: DeleteWorkflowCommand): Promise<void> {
    const workflow = await this.workflows.findByIdOrIdentifier(scope, workflowId);
    if (!workflow || !(await this.workflows.softDelete(scope, workflow.id, deletedBy, this.clock.now()))) {
      throw new WorkflowNotFoundError(workflowId);
    }
  }
}
