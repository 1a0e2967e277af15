import { Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { LayoutDiff, diffLayouts } from '../../domain/layout-publication';
import { WorkflowDiff, diffWorkflows } from '../../domain/workflow-publication';
import { PublicationRoute, WorkflowPublication } from './workflow-publication';

export interface EnvironmentDiff {
  source: EnvironmentScope;
  target: EnvironmentScope;
  workflows: WorkflowDiff[];
  layouts: LayoutDiff[];
}

/** POST /v2/environments/{target}/diff: what publishing from the source would add, change, leave and delete. Writes nothing. */
@Injectable()
export class DiffEnvironments {
  constructor(private readonly publication: WorkflowPublication) {}

  async execute(route: PublicationRoute): Promise<EnvironmentDiff> {
    const { source, target } = await this.publication.route(route);
    const [from, to, fromLayouts, toLayouts] = await Promise.all([
      this.publication.live(source),
      this.publication.live(target),
      this.publication.liveLayouts(source),
      this.publication.liveLayouts(target),
    ]);
    return { source, target, workflows: diffWorkflows(from, to), layouts: diffLayouts(fromLayouts, toLayouts) };
  }
}
