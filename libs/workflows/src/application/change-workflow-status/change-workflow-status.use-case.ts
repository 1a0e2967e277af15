import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { WorkflowNotFoundError, WorkflowStatusUnchangedError } from '../../domain/errors';
import { Workflow, workflowReference } from '../../domain/workflow';
import { WORKFLOW_REPOSITORY, WorkflowRepository } from '../../ports/workflow.repository.port';
import { UpdateWorkflow } from '../update-workflow/update-workflow.use-case';

export interface ChangeWorkflowStatusCommand {
  scope: EnvironmentScope;
  /** Internal `_id` or trigger identifier. */
  workflowId: string;
  active: boolean;
}

/**
 * PUT /v1/workflows/{id}/status (and its notification-templates twin): switches a workflow on or
 * off through UpdateWorkflow (draft follows, workflow.updated is published). As Novu, asking for
 * the status it has already is a 400.
 */
@Injectable()
export class ChangeWorkflowStatus {
  constructor(
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    private readonly updateWorkflow: UpdateWorkflow,
  ) {}

  async execute({ scope, workflowId, active }: ChangeWorkflowStatusCommand): Promise<Workflow> {
    const current = await this.workflows.findByIdOrIdentifier(scope, workflowReference(workflowId));
    if (!current) throw new WorkflowNotFoundError(workflowId);
    if (current.active === active) throw new WorkflowStatusUnchangedError();
    return this.updateWorkflow.execute({ scope, workflowId: current.id, changes: { active } });
  }
}
