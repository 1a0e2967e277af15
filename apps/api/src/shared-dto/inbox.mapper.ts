import { WorkflowPreferencesView } from '@app/subscribers';
import { InboxPreferenceDto } from './inbox.dto';

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
