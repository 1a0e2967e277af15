import { SubscriberPreferencesView, WorkflowPreferencesView } from '@app/subscribers';
import type { InboxPreferenceDto } from '../../inbox/inbox.dto';
import { SubscriberPreferencesResponseDto } from './preferences.dto';

export function toPreferencesResponse(view: SubscriberPreferencesView): SubscriberPreferencesResponseDto {
  return {
    global: {
      enabled: view.global.enabled,
      channels: view.global.channels,
      ...(view.global.schedule ? { schedule: view.global.schedule } : {}),
    },
    workflows: view.workflows.map((w) => ({
      enabled: w.enabled,
      channels: w.channels,
      overrides: w.overrides,
      workflow: { slug: w.workflow.slug, identifier: w.workflow.identifier, name: w.workflow.name, updatedAt: w.workflow.updatedAt.toISOString() },
      ...(w.updatedAt ? { updatedAt: w.updatedAt.toISOString() } : {}),
    })),
  };
}

/** Novu's Inbox preference shape (`level: template`), which its v2 bulk update also answers with. */
export function toInboxWorkflowPreference(preference: WorkflowPreferencesView): InboxPreferenceDto {
  const { workflow } = preference;
  return {
    level: 'template',
    enabled: preference.enabled,
    channels: preference.channels,
    workflow: { id: workflow.id, identifier: workflow.identifier, name: workflow.name, critical: workflow.critical, tags: [], severity: 'none' },
  };
}
