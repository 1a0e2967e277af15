import { CHANNELS } from '@app/kernel';
import { SubscriberPreferencesView, WorkflowPreferencesView } from '@app/subscribers';
import { SubscriberPreferencesResponseDto } from './preferences.dto';
import { GlobalPreferencesV1ResponseDto, WorkflowPreferenceV1Dto } from './preferences-v1.dto';

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

/** Novu's v1 shape of one workflow's preference (`{template, preference}`). */
export function toWorkflowPreferenceV1(preference: WorkflowPreferencesView): WorkflowPreferenceV1Dto {
  const { workflow } = preference;
  return {
    template: { _id: workflow.id, name: workflow.name, critical: workflow.critical, triggers: [{ type: 'event', identifier: workflow.identifier }] },
    preference: { enabled: preference.enabled, channels: preference.channels, overrides: preference.overrides },
  };
}

/** Novu's v1 global preference: every channel, on unless turned off. */
export function toGlobalPreferenceV1(view: SubscriberPreferencesView): GlobalPreferencesV1ResponseDto {
  const channels = Object.fromEntries(CHANNELS.map((channel) => [channel, view.global.channels[channel] ?? true]));
  return { preference: { enabled: view.global.enabled, channels } };
}
