import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, Page } from '@app/kernel';
import { Workflow } from '../../domain/workflow';
import { WORKFLOW_REPOSITORY, WorkflowRepository, WorkflowSearch } from '../../ports/workflow.repository.port';

export type ListWorkflowsQuery = { scope: EnvironmentScope } & WorkflowSearch;

@Injectable()
export class ListWorkflows {
  constructor(@Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository) {}

  execute({ scope, query, ...search }: ListWorkflowsQuery): Promise<Page<Workflow>> {
    const text = query?.trim();
    return this.workflows.search(scope, { ...search, ...(text ? { query: text } : {}) });
  }
}
