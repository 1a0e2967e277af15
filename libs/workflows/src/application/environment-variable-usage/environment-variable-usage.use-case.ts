import { Inject, Injectable } from '@nestjs/common';
import {
  ENVIRONMENT_REPOSITORY,
  ENVIRONMENT_VARIABLE_REPOSITORY,
  EnvironmentRepository,
  EnvironmentVariableNotFoundError,
  EnvironmentVariableRepository,
  readsEnvironmentVariable,
} from '@app/environments';
import { WorkflowPublication } from '../publish-workflows/workflow-publication';

/**
 * GET /v1/environment-variables/{key}/usage: the workflows of the organization whose steps read the
 * variable (`env.KEY` in content, URLs, conditions or controls), each workflowId once.
 */
@Injectable()
export class GetEnvironmentVariableUsage {
  constructor(
    @Inject(ENVIRONMENT_VARIABLE_REPOSITORY) private readonly variables: EnvironmentVariableRepository,
    @Inject(ENVIRONMENT_REPOSITORY) private readonly environments: EnvironmentRepository,
    private readonly publication: WorkflowPublication,
  ) {}

  async execute(organizationId: string, key: string): Promise<{ name: string; workflowId: string }[]> {
    if (!(await this.variables.findByKey(organizationId, key))) throw new EnvironmentVariableNotFoundError(key);
    const found = new Map<string, string>();
    for (const environment of await this.environments.listEnvironments(organizationId)) {
      for (const workflow of await this.publication.live({ organizationId, environmentId: environment.id })) {
        const workflowId = workflow.trigger.identifier;
        if (!found.has(workflowId) && readsEnvironmentVariable(workflow.steps, key)) found.set(workflowId, workflow.name);
      }
    }
    return [...found].map(([workflowId, name]) => ({ name, workflowId }));
  }
}
