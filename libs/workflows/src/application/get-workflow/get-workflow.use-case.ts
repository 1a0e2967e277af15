import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { WorkflowNotFoundError } from '../../domain/errors';
import { Workflow, workflowReference } from '../../domain/workflow';
import { WORKFLOW_REPOSITORY, WorkflowRepository } from '../../ports/workflow.repository.port';

export interface GetWorkflowQuery {
  scope: EnvironmentScope;
  /** Internal `_id` or trigger identifier. */
  workflowId: string;
}

@Injectable()
export class GetWorkflow {
  constructor(@Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository) {}

  async execute({ scope, workflowId }: GetWorkflowQuery): Promise<Workflow> {
    const workflow = await this.workflows.findByIdOrIdentifier(scope, workflowReference(workflowId));
    if (!workflow) throw new WorkflowNotFoundError(workflowId);
    return workflow;
  }
}
