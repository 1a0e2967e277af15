import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { WorkflowNotFoundError } from '../../domain/errors';
import { Workflow } from '../../domain/workflow';
import { diffWorkflows } from '../../domain/workflow-publication';
import { layoutIdsOf } from '../../domain/layout';
import { diffLayouts } from '../../domain/layout-publication';
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

/**
 * PUT /v2/workflows/{workflowId}/sync: one workflow published to another environment of the
 * organization, with the layouts it uses that the target lacks; its copy there.
 */
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
    const needed = new Set(layoutIdsOf(workflow));
    const [fromLayouts, toLayouts] = await Promise.all([this.publication.liveLayouts(source), this.publication.liveLayouts(target)]);
    const missing = fromLayouts.layouts.filter((l) => needed.has(l.layoutId) && !toLayouts.layouts.some((t) => t.layoutId === l.layoutId));
    // Created as they are in the source; which layout is the target's default stays as it is.
    for (const diff of diffLayouts({ layouts: missing, defaultId: null }, { layouts: [], defaultId: null }))
      await this.publication.writeLayout(diff, target, by, true);
    const identifier = workflow.trigger.identifier;
    const current = await this.workflows.findByIdOrIdentifier(target, identifier);
    const [diff] = diffWorkflows([workflow], current?.trigger.identifier === identifier ? [current] : []);
    return (await this.publication.write(diff, target, by)).workflow;
  }
}
