import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, Page } from '@app/kernel';
import { Workflow } from '../../domain/workflow';
import { WORKFLOW_REPOSITORY, WorkflowRepository } from '../../ports/workflow.repository.port';

export interface ListWorkflowsQuery {
  scope: EnvironmentScope;
  page: number;
  limit: number;
  query?: string;
}

@Injectable()
export class ListWorkflows {
  constructor(@Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository) {}

  execute({ scope, page, limit, query }: ListWorkflowsQuery): Promise<Page<Workflow>> {
    const search = query?.trim();
    return this.workflows.search(scope, { page, limit, ...(search ? { query: search } : {}) });
  }
}
