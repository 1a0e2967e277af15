import { Injectable, Logger } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { PublishResourcesNotFoundError } from '../../domain/errors';
import { Workflow } from '../../domain/workflow';
import { WorkflowDiff, diffWorkflows } from '../../domain/workflow-publication';
import { PublicationRoute, WorkflowPublication } from './workflow-publication';

export interface PublishEnvironmentCommand extends PublicationRoute {
  /** Who publishes: the API key's id (recorded as lastPublishedBy). */
  by: string;
  /** Report what would be done, write nothing. */
  dryRun?: boolean;
  /** Only these workflows (trigger identifier or source `_id`); then nothing is deleted. Default: all. */
  workflowIds?: string[];
}

export type PublishOutcome =
  | { workflowId: string; name: string; action: 'created' | 'updated' | 'deleted'; workflow: Workflow }
  | { workflowId: string; name: string; action: 'skipped'; reason: string }
  | { workflowId: string; name: string; action: 'failed'; error: string };

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
 * POST /v2/environments/{target}/publish: copies the source's workflows to the target, matched by
 * trigger identifier, and deletes the target's workflows the source no longer has (as Novu). Only
 * what differs is written, so publishing again with nothing changed writes nothing. Each workflow
 * is written on its own: one that fails (changed in the target meanwhile) is reported and the rest go on.
 */
@Injectable()
export class PublishEnvironment {
  private readonly logger = new Logger(PublishEnvironment.name);

  constructor(private readonly publication: WorkflowPublication) {}

  async execute(command: PublishEnvironmentCommand): Promise<PublishResult> {
    const { source, target } = await this.publication.route(command);
    let [from, to] = await Promise.all([this.publication.live(source), this.publication.live(target)]);
    if (command.workflowIds) {
      const wanted = new Set(command.workflowIds);
      const missing = command.workflowIds.filter((id) => !from.some((w) => w.id === id || w.trigger.identifier === id));
      if (missing.length) throw new PublishResourcesNotFoundError(missing);
      from = from.filter((w) => wanted.has(w.id) || wanted.has(w.trigger.identifier));
      const chosen = new Set(from.map((w) => w.trigger.identifier));
      to = to.filter((w) => chosen.has(w.trigger.identifier));
    }
    const outcomes: PublishOutcome[] = [];
    for (const diff of diffWorkflows(from, to)) {
      const name = (diff.source ?? diff.target)!.name;
      if (command.dryRun || diff.action === 'unchanged') {
        outcomes.push({ workflowId: diff.workflowId, name, action: 'skipped', reason: command.dryRun ? WOULD[diff.action] : NO_CHANGES });
        continue;
      }
      try {
        const written = await this.publication.write(diff, target, command.by);
        if (written.action !== 'unchanged') outcomes.push({ workflowId: diff.workflowId, name, action: written.action, workflow: written.workflow });
      } catch (error) {
        this.logger.warn(`Publishing workflow ${diff.workflowId} to ${target.environmentId} failed: ${(error as Error).message}`);
        outcomes.push({ workflowId: diff.workflowId, name, action: 'failed', error: (error as Error).message });
      }
    }
    return { source, target, outcomes };
  }
}
