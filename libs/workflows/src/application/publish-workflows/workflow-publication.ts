import { Inject, Injectable, Optional } from '@nestjs/common';
import { DEVELOPMENT_ENVIRONMENT, ENVIRONMENT_REPOSITORY, EnvironmentNotFoundError, EnvironmentRepository } from '@app/environments';
import { CLOCK, Clock, EnvironmentScope, OUTBOUND_EVENTS, OutboundEvents, newId, noOutboundEvents } from '@app/kernel';
import { PublishSameEnvironmentError } from '../../domain/errors';
import { Workflow, workflowEventObject } from '../../domain/workflow';
import { WorkflowDiff, publishedCopy } from '../../domain/workflow-publication';
import { WORKFLOW_REPOSITORY, WorkflowRepository } from '../../ports/workflow.repository.port';
import { TranslationPublication } from '../translations/translation-publication';
import { Layout, layoutIdsOf } from '../../domain/layout';
import { LayoutDiff, LayoutSet, layoutSet } from '../../domain/layout-publication';
import { LAYOUT_REPOSITORY, LayoutRepository } from '../../ports/layout.repository.port';
import { liveWorkflows } from '../layouts/layout-records';

export interface PublicationRoute {
  /** The caller's organization: any of its environments' keys publishes between all of them. */
  organizationId: string;
  /** Default: the organization's Development environment. */
  sourceEnvironmentId?: string;
  targetEnvironmentId: string;
}

/** What writing one diff did: a workflow created, updated or deleted in the target, or nothing (unchanged). */
export type WriteOutcome = { action: 'created' | 'updated' | 'deleted'; workflow: Workflow } | { action: 'unchanged'; workflow: Workflow };

const PAGE = 100;

/** What publishing, its diff and the one-workflow sync share: the two environments, their workflows and layouts, and the write of one diff. */
@Injectable()
export class WorkflowPublication {
  constructor(
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(LAYOUT_REPOSITORY) private readonly layouts: LayoutRepository,
    @Inject(ENVIRONMENT_REPOSITORY) private readonly environments: EnvironmentRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly translations: TranslationPublication,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  /** Both environments, each of the caller's organization (404 otherwise), and different (400). */
  async route({ organizationId, sourceEnvironmentId, targetEnvironmentId }: PublicationRoute): Promise<{ source: EnvironmentScope; target: EnvironmentScope }> {
    const target = await this.environment(organizationId, targetEnvironmentId);
    const source = sourceEnvironmentId
      ? await this.environment(organizationId, sourceEnvironmentId)
      : await this.environments.findEnvironmentByName(organizationId, DEVELOPMENT_ENVIRONMENT);
    if (!source) throw new EnvironmentNotFoundError(DEVELOPMENT_ENVIRONMENT);
    if (source.id === target.id) throw new PublishSameEnvironmentError();
    return { source: { organizationId, environmentId: source.id }, target: { organizationId, environmentId: target.id } };
  }

  /** An environment of the organization (404 otherwise) as a scope. */
  async scope(organizationId: string, environmentId: string): Promise<EnvironmentScope> {
    return { organizationId, environmentId: (await this.environment(organizationId, environmentId)).id };
  }

  /** Every live workflow of the environment, oldest first. */
  live(scope: EnvironmentScope): Promise<Workflow[]> {
    return liveWorkflows(this.workflows, scope);
  }

  /** Every layout of the environment, oldest first, and its default. */
  async liveLayouts(scope: EnvironmentScope): Promise<LayoutSet> {
    const all: Layout[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const { items } = await this.layouts.search(scope, { offset, limit: PAGE, orderDirection: 'asc' });
      all.push(...items);
      if (items.length < PAGE) return layoutSet(all);
    }
  }

  /**
   * Makes the target match the source for one layout: creates or changes its copy (the default too:
   * the source's default becomes the target's; a source without one leaves the target without one), or
   * deletes it unless workflows of the target still use it. Throws what stops it (the caller reports it failed).
   */
  async writeLayout(diff: LayoutDiff, target: EnvironmentScope, by: string, sourceHasDefault: boolean): Promise<'created' | 'updated' | 'deleted'> {
    const now = this.clock.now();
    if (diff.action === 'deleted') {
      const doomed = diff.target!;
      const users = (await this.live(target)).filter((workflow) => layoutIdsOf(workflow).includes(doomed.layoutId));
      if (users.length) throw new Error(`Layout ${doomed.layoutId} is used by ${users.map((w) => w.trigger.identifier).join(', ')} in the target`);
      if (!(await this.layouts.delete(target, doomed.id))) throw new Error(`Layout ${doomed.layoutId} changed in the target meanwhile`);
      await this.translations.remove(target, { type: 'layout', key: doomed.layoutId });
      return 'deleted';
    }
    const source = diff.source!;
    const content = { name: source.name, isTranslationEnabled: source.isTranslationEnabled, controlValues: source.controlValues };
    let copyId: string;
    if (diff.target) {
      if (!(await this.layouts.update(target, diff.target.id, content, now))) throw new Error(`Layout ${diff.layoutId} changed in the target meanwhile`);
      copyId = diff.target.id;
    } else {
      copyId = newId(now.getTime());
      const copy: Layout = { id: copyId, ...target, layoutId: source.layoutId, ...content, creatorId: by, createdAt: now, updatedAt: now };
      if (!(await this.layouts.insert(copy))) throw new Error(`Layout ${diff.layoutId} was created in the target meanwhile`);
    }
    if (diff.sourceIsDefault) await this.layouts.markDefault(target, copyId, now);
    else if (diff.targetIsDefault && !sourceHasDefault) await this.layouts.markDefault(target, null, now);
    const translated = { type: 'layout' as const, key: source.layoutId };
    await this.translations.copy({ scope: source, resource: translated }, { scope: target, resource: translated });
    return diff.target ? 'updated' : 'created';
  }

  /**
   * Makes the target match the source for one workflow: creates, replaces (compare-and-set on the
   * revision it was diffed at) or deletes its copy; an unchanged one is not written. The source
   * records the publish too. The workflow's translations go with it, an unchanged workflow's too.
   * Throws when the target changed under it (the caller reports it failed).
   */
  async write(diff: WorkflowDiff, target: EnvironmentScope, by: string): Promise<WriteOutcome> {
    const outcome = await this.writeWorkflow(diff, target, by);
    if (outcome.action === 'deleted') await this.translations.remove(target, { type: 'workflow', key: outcome.workflow.id });
    else
      await this.translations.copy(
        { scope: diff.source!, resource: { type: 'workflow', key: diff.source!.id } },
        { scope: target, resource: { type: 'workflow', key: outcome.workflow.id } },
      );
    return outcome;
  }

  private async writeWorkflow(diff: WorkflowDiff, target: EnvironmentScope, by: string): Promise<WriteOutcome> {
    const now = this.clock.now();
    if (diff.action === 'unchanged') return { action: 'unchanged', workflow: diff.target! };
    if (diff.action === 'deleted') {
      const doomed = diff.target!;
      if (!(await this.workflows.softDelete(target, doomed.id, by, now))) throw new Error(`Workflow ${diff.workflowId} changed in the target meanwhile`);
      const deleted = { ...doomed, deletedAt: now, deletedBy: by };
      await this.events.publish(target, { type: 'workflow.deleted', key: doomed.id, object: workflowEventObject(deleted), occurredAt: now });
      return { action: 'deleted', workflow: deleted };
    }
    const source = diff.source!;
    const outcome = diff.target ? await this.replace(source, diff.target, now, by) : await this.create(source, target, now, by);
    // The source keeps when it was last published; losing this to a concurrent edit of it loses nothing else.
    await this.workflows.update({ ...source, lastPublishedAt: now, lastPublishedBy: by, revision: source.revision + 1 }, source.revision);
    return outcome;
  }

  private async create(source: Workflow, target: EnvironmentScope, now: Date, by: string): Promise<WriteOutcome> {
    const copy = publishedCopy(source, { id: newId(now.getTime()), ...target, creatorId: by, createdAt: now, revision: 1 }, now, by);
    if (!(await this.workflows.insert(copy))) throw new Error(`Workflow ${source.trigger.identifier} was created in the target meanwhile`);
    await this.events.publish(target, { type: 'workflow.created', key: copy.id, object: workflowEventObject(copy), occurredAt: now });
    return { action: 'created', workflow: copy };
  }

  private async replace(source: Workflow, current: Workflow, now: Date, by: string): Promise<WriteOutcome> {
    const { id, organizationId, environmentId, creatorId, createdAt } = current;
    const copy = publishedCopy(source, { id, organizationId, environmentId, creatorId, createdAt, revision: current.revision + 1 }, now, by);
    const result = await this.workflows.update(copy, current.revision);
    if (result !== 'updated') throw new Error(`Workflow ${source.trigger.identifier} changed in the target meanwhile (${result})`);
    await this.events.publish(current, {
      type: 'workflow.updated',
      key: `${copy.id}:${copy.revision}`,
      object: workflowEventObject(copy),
      previousObject: workflowEventObject(current),
      occurredAt: now,
    });
    return { action: 'updated', workflow: copy };
  }

  private async environment(organizationId: string, id: string) {
    const environment = await this.environments.findEnvironment(id);
    if (!environment || environment.organizationId !== organizationId) throw new EnvironmentNotFoundError(id);
    return environment;
  }
}
