import { Inject, Injectable } from '@nestjs/common';
import { ChannelFlags, EnvironmentScope } from '@app/kernel';
import { WORKFLOW_REPOSITORY, Workflow, WorkflowRepository, idFromWorkflowSlug } from '@app/workflows';
import { SubscriberPreferencesView, WorkflowPreferencesView } from '../../domain/preferences';
import {
  CriticalWorkflowsPreferencesError,
  EmptyBulkPreferencesError,
  PreferencesSubscriberNotFoundError,
  WorkflowsNotFoundError,
} from '../../domain/preferences-errors';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';
import { UpdateSubscriberPreferences } from '../update-subscriber-preferences/update-subscriber-preferences.use-case';

export interface BulkPreferenceEntry {
  /** Internal `_id`, trigger identifier or slug. */
  workflowId: string;
  channels: Partial<ChannelFlags>;
}

export interface BulkUpdateSubscriberPreferencesCommand {
  scope: EnvironmentScope;
  subscriberId: string;
  preferences: BulkPreferenceEntry[];
}

/**
 * Several workflows' channels in one call, as Novu's bulk update: every workflow is found and
 * checked (none missing, none critical) before anything is written; entries naming the same
 * workflow count once, the last one winning. Answers each changed workflow's preference.
 */
@Injectable()
export class BulkUpdateSubscriberPreferences {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    private readonly updatePreferences: UpdateSubscriberPreferences,
  ) {}

  async execute({ scope, subscriberId, preferences }: BulkUpdateSubscriberPreferencesCommand): Promise<WorkflowPreferencesView[]> {
    if (!(await this.subscribers.findBySubscriberId(scope, subscriberId))) throw new PreferencesSubscriberNotFoundError(subscriberId);
    if (preferences.length === 0) throw new EmptyBulkPreferencesError();
    const found = await Promise.all(preferences.map((entry) => this.findWorkflow(scope, entry.workflowId)));
    const missing = preferences.filter((_, i) => !found[i]).map((entry) => entry.workflowId);
    if (missing.length) throw new WorkflowsNotFoundError([...new Set(missing)]);
    const workflows = found as Workflow[];
    const critical = workflows.filter((w) => w.critical).map((w) => w.id);
    if (critical.length) throw new CriticalWorkflowsPreferencesError([...new Set(critical)]);

    const byWorkflow = new Map<string, Partial<ChannelFlags>>();
    preferences.forEach((entry, i) => byWorkflow.set(workflows[i].id, entry.channels));
    let view: SubscriberPreferencesView | undefined;
    for (const [workflowId, channels] of byWorkflow) {
      view = await this.updatePreferences.execute({ scope, subscriberId, workflowId, channels });
    }
    const all = view!.workflows;
    return [...byWorkflow.keys()].map((id) => all.find((w) => w.workflow.id === id)).filter((w): w is WorkflowPreferencesView => w !== undefined);
  }

  private async findWorkflow(scope: EnvironmentScope, reference: string): Promise<Workflow | null> {
    const workflow = await this.workflows.findByIdOrIdentifier(scope, reference);
    if (workflow) return workflow;
    const slugId = idFromWorkflowSlug(reference);
    return slugId ? this.workflows.findById(scope, slugId) : null;
  }
}
