import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { WorkflowNotFoundError } from '../../domain/errors';
import { Workflow } from '../../domain/workflow';
import { diffWorkflows } from '../../domain/workflow-publication';
import { WORKFLOW_REPOSITORY, WorkflowRepository } from '../../ports/workflow.repository.port';
import { WorkflowPublication } from './workflow-publication';

export interface SyncWorkflowCommand {
  /** The caller's environment: the source. */
  scope: EnvironmentScope;
  /** Internal `_id` or trigger identifier, in the caller's environment. */
  workflowId: string;
  targetEnvironmentId: string;
  by: string;
}

/** PUT /v2/workflows/{workflowId}/sync: one workflow published to another environment of the organization; its copy there. */
@Injectable()
export class SyncWorkflow {
  constructor(
    private readonly publication: WorkflowPublication,
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
  ) {}

  async execute({ scope, workflowId, targetEnvironmentId, by }: SyncWorkflowCommand): Promise<Workflow> {
    const { source, target } = await this.publication.route({
      organizationId: scope.organizationId,
      sourceEnvironmentId: scope.environmentId,
      targetEnvironmentId,
    });
    const workflow = await this.workflows.findByIdOrIdentifier(source, workflowId);
    if (!workflow) throw new WorkflowNotFoundError(workflowId);
    const identifier = workflow.trigger.identifier;
    const current = await this.workflows.findByIdOrIdentifier(target, identifier);
    const [diff] = diffWorkflows([workflow], current?.trigger.identifier === identifier ? [current] : []);
    return (await this.publication.write(diff, target, by)).workflow;
  }
}
