import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { LayoutNotFoundError } from '../../domain/errors';
import { Layout, LayoutUser, ShownLayout, layoutIdsOf, layoutReference } from '../../domain/layout';
import { Workflow } from '../../domain/workflow';
import { LAYOUT_REPOSITORY, LayoutRepository } from '../../ports/layout.repository.port';
import { WORKFLOW_REPOSITORY, WorkflowRepository } from '../../ports/workflow.repository.port';

const PAGE = 100;

/** What the layout use cases share: a layout by reference (404 otherwise), its default flag, and the workflows that use it. */
@Injectable()
export class LayoutRecords {
  constructor(
    @Inject(LAYOUT_REPOSITORY) readonly layouts: LayoutRepository,
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
  ) {}

  /** By `_id`, layoutId or slug, else LayoutNotFoundError. */
  async find(scope: EnvironmentScope, reference: string): Promise<Layout> {
    const layout = await this.layouts.findByReference(scope, layoutReference(reference));
    if (!layout) throw new LayoutNotFoundError(reference);
    return layout;
  }

  /** The layouts with their default flag. */
  async shown(scope: EnvironmentScope, layouts: Layout[]): Promise<ShownLayout[]> {
    const current = layouts.length ? await this.layouts.findDefault(scope) : null;
    return layouts.map((layout) => ({ ...layout, isDefault: layout.id === current?.id }));
  }

  async showOne(scope: EnvironmentScope, layout: Layout): Promise<ShownLayout> {
    return (await this.shown(scope, [layout]))[0];
  }

  /** The live workflows of the environment whose email steps name the layout, oldest first. */
  async users(scope: EnvironmentScope, layoutId: string): Promise<LayoutUser[]> {
    return (await liveWorkflows(this.workflows, scope))
      .filter((workflow) => layoutIdsOf(workflow).includes(layoutId))
      .map((workflow) => ({ workflowId: workflow.trigger.identifier, name: workflow.name }));
  }
}

/** Every live workflow of the environment, oldest first. */
export async function liveWorkflows(workflows: WorkflowRepository, scope: EnvironmentScope): Promise<Workflow[]> {
  const all: Workflow[] = [];
  for (let page = 0; ; page++) {
    const { items } = await workflows.search(scope, { page, limit: PAGE });
    all.push(...items);
    if (items.length < PAGE) return all.reverse();
  }
}
