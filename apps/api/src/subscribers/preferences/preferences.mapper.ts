import { SubscriberPreferencesView } from '@app/subscribers';
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
