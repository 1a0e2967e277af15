import { Injectable, Logger } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { PublishResourcesNotFoundError } from '../../domain/errors';
import { layoutIdsOf } from '../../domain/layout';
import { LayoutDiff, LayoutSet, diffLayouts } from '../../domain/layout-publication';
import { Workflow } from '../../domain/workflow';
import { WorkflowDiff, diffWorkflows } from '../../domain/workflow-publication';
import { PublicationRoute, WorkflowPublication } from './workflow-publication';

/** A resource to publish: a workflow (trigger identifier or `_id`) or a layout (layoutId or `_id`). */
export interface PublishResource {
  resourceType: 'workflow' | 'layout';
  resourceId: string;
}

export interface PublishEnvironmentCommand extends PublicationRoute {
  /** Who publishes: the API key's id (recorded as lastPublishedBy). */
  by: string;
  /** Report what would be done, write nothing. */
  dryRun?: boolean;
  /**
   * Only these resources, and the layouts their workflows use that the target lacks; then nothing is
   * deleted. A workflow resource that names no workflow but a layout publishes the layout (@novu/api
   * 3.x can only send workflow types). Default: all.
   */
  resources?: PublishResource[];
}

export type PublishOutcome = { resourceType: 'workflow' | 'layout'; resourceId: string; name: string } & (
  { action: 'created' | 'updated' | 'deleted' } | { action: 'skipped'; reason: string } | { action: 'failed'; error: string }
);

export interface PublishResult {
  source: EnvironmentScope;
  target: EnvironmentScope;
  outcomes: PublishOutcome[];
}

const NO_CHANGES = 'No changes';
const WOULD: Record<WorkflowDiff['action'], string> = {
  added: 'Dry run: would be created',
  modified: 'Dry run: would be updated',
  deleted: 'Dry run: would be deleted',
  unchanged: NO_CHANGES,
};

/**
 * POST /v2/environments/{target}/publish: copies the source's layouts and workflows to the target,
 * matched by layoutId and trigger identifier, and deletes the target's the source no longer has (as
 * Novu). Layouts are written first (a workflow's copy names the target's layout of the same layoutId),
 * deleted last. Only what differs is written, so publishing again with nothing changed writes nothing.
 * Each resource is written on its own: one that fails (changed in the target meanwhile, a layout still
 * in use) is reported and the rest go on.
 */
@Injectable()
export class PublishEnvironment {
  private readonly logger = new Logger(PublishEnvironment.name);

  constructor(private readonly publication: WorkflowPublication) {}

  async execute(command: PublishEnvironmentCommand): Promise<PublishResult> {
    const { source, target } = await this.publication.route(command);
    const [allFrom, allTo, fromLayouts, toLayouts] = await Promise.all([
      this.publication.live(source),
      this.publication.live(target),
      this.publication.liveLayouts(source),
      this.publication.liveLayouts(target),
    ]);
    const chosen = command.resources ? choose(command.resources, allFrom, fromLayouts, toLayouts) : undefined;
    const from = chosen ? allFrom.filter((w) => chosen.workflows.has(w.trigger.identifier)) : allFrom;
    const to = chosen ? allTo.filter((w) => chosen.workflows.has(w.trigger.identifier)) : allTo;
    const only = (set: LayoutSet): LayoutSet => (chosen ? { ...set, layouts: set.layouts.filter((l) => chosen.layouts.has(l.layoutId)) } : set);
    const layoutDiffs = diffLayouts(only(fromLayouts), only(toLayouts));
    const sourceHasDefault = fromLayouts.defaultId !== null;

    const outcomes: PublishOutcome[] = [];
    const publishLayouts = async (diffs: LayoutDiff[]) => {
      for (const diff of diffs) {
        const base = { resourceType: 'layout' as const, resourceId: diff.layoutId, name: (diff.source ?? diff.target)!.name };
        if (command.dryRun || diff.action === 'unchanged') {
          outcomes.push({ ...base, action: 'skipped', reason: command.dryRun ? WOULD[diff.action] : NO_CHANGES });
          continue;
        }
        try {
          outcomes.push({ ...base, action: await this.publication.writeLayout(diff, target, command.by, sourceHasDefault) });
        } catch (error) {
          outcomes.push({ ...base, action: 'failed', error: this.failed(`layout ${diff.layoutId}`, target, error) });
        }
      }
    };

    await publishLayouts(layoutDiffs.filter((diff) => diff.action !== 'deleted'));
    for (const diff of diffWorkflows(from, to)) {
      const base = { resourceType: 'workflow' as const, resourceId: diff.workflowId, name: (diff.source ?? diff.target)!.name };
      if (command.dryRun || diff.action === 'unchanged') {
        outcomes.push({ ...base, action: 'skipped', reason: command.dryRun ? WOULD[diff.action] : NO_CHANGES });
        continue;
      }
      try {
        const written = await this.publication.write(diff, target, command.by);
        if (written.action !== 'unchanged') outcomes.push({ ...base, action: written.action });
      } catch (error) {
        outcomes.push({ ...base, action: 'failed', error: this.failed(`workflow ${diff.workflowId}`, target, error) });
      }
    }
    await publishLayouts(layoutDiffs.filter((diff) => diff.action === 'deleted'));
    return { source, target, outcomes };
  }

  private failed(what: string, target: EnvironmentScope, error: unknown): string {
    this.logger.warn(`Publishing ${what} to ${target.environmentId} failed: ${(error as Error).message}`);
    return (error as Error).message;
  }
}

/** The workflows (by trigger identifier) and layouts (by layoutId) the resources name, with the layouts those workflows need that the target lacks. */
function choose(resources: PublishResource[], workflows: Workflow[], layouts: LayoutSet, targetLayouts: LayoutSet) {
  const chosen = { workflows: new Set<string>(), layouts: new Set<string>() };
  const missing: string[] = [];
  for (const { resourceType, resourceId } of resources) {
    const workflow = resourceType === 'workflow' ? workflows.find((w) => w.id === resourceId || w.trigger.identifier === resourceId) : undefined;
    const layout = workflow ? undefined : layouts.layouts.find((l) => l.id === resourceId || l.layoutId === resourceId);
    if (workflow) chosen.workflows.add(workflow.trigger.identifier);
    else if (layout) chosen.layouts.add(layout.layoutId);
    else missing.push(resourceId);
  }
  if (missing.length) throw new PublishResourcesNotFoundError(missing);
  const inTarget = new Set(targetLayouts.layouts.map((l) => l.layoutId));
  const inSource = new Set(layouts.layouts.map((l) => l.layoutId));
  for (const workflow of workflows.filter((w) => chosen.workflows.has(w.trigger.identifier))) {
    for (const layoutId of layoutIdsOf(workflow)) if (inSource.has(layoutId) && !inTarget.has(layoutId)) chosen.layouts.add(layoutId);
  }
  return chosen;
}
