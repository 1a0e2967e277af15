import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { WORKFLOW_REPOSITORY, Workflow, WorkflowRepository, activeChannels, workflowSlug } from '@app/workflows';
import { PreferenceWorkflowInfo, SubscriberPreferencesView, buildPreferencesView } from '../../domain/preferences';
import { PreferencesSubscriberNotFoundError } from '../../domain/preferences-errors';
import { PREFERENCE_REPOSITORY, PreferenceRepository } from '../../ports/preference.repository.port';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '../../ports/subscriber.repository.port';

export type PreferenceCriticality = 'nonCritical' | 'critical' | 'all';

export interface GetSubscriberPreferencesQuery {
  scope: EnvironmentScope;
  /** The caller's own subscriberId. */
  subscriberId: string;
  criticality?: PreferenceCriticality;
}

export function toPreferenceWorkflowInfo(workflow: Workflow): PreferenceWorkflowInfo {
  return {
    id: workflow.id,
    name: workflow.name,
    identifier: workflow.trigger.identifier,
    slug: workflowSlug(workflow),
    updatedAt: workflow.updatedAt,
    critical: workflow.critical,
    preferenceSettings: workflow.preferenceSettings,
    channels: activeChannels(workflow),
  };
}

@Injectable()
export class GetSubscriberPreferences {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(PREFERENCE_REPOSITORY) private readonly preferences: PreferenceRepository,
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
  ) {}

  async execute({ scope, subscriberId, criticality = 'nonCritical' }: GetSubscriberPreferencesQuery): Promise<SubscriberPreferencesView> {
    const subscriber = await this.subscribers.findBySubscriberId(scope, subscriberId);
    if (!subscriber) throw new PreferencesSubscriberNotFoundError(subscriberId);
    const [workflows, preferences] = await Promise.all([this.workflows.listActive(scope), this.preferences.listForSubscriber(scope, subscriber.id)]);
    const activeWorkflows = workflows.map(toPreferenceWorkflowInfo);
    const listed = activeWorkflows.filter((w) => criticality === 'all' || w.critical === (criticality === 'critical'));
    return buildPreferencesView({ activeWorkflows, listed, preferences });
  }
}
