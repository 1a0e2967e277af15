import { ChannelFlags } from '@app/kernel';
import { SubscriberPreferencesView } from '@app/subscribers';
import { InboxChannelsDto, InboxPreferenceDto } from '../shared-dto/inbox.dto';
import { toInboxWorkflowPreference } from '../shared-dto/inbox.mapper';

const CHANNEL_KEYS = ['email', 'sms', 'in_app', 'chat', 'push'] as const;

/** Novu's Inbox preference: `global`, or `template` with its workflow. */
export function toInboxGlobalPreference(view: SubscriberPreferencesView): InboxPreferenceDto {
  return { level: 'global', enabled: view.global.enabled, channels: view.global.channels, ...(view.global.schedule ? { schedule: view.global.schedule } : {}) };
}

/** The channels the body switches, and only those. */
export function channelsOf(body: InboxChannelsDto): Partial<ChannelFlags> {
  return Object.fromEntries(CHANNEL_KEYS.filter((key) => typeof body[key] === 'boolean').map((key) => [key, body[key]]));
}

/** The preference of the workflow named by id, trigger identifier or slug; the global one when no listed workflow matches. */
export function findWorkflowPreference(view: SubscriberPreferencesView, reference: string): InboxPreferenceDto {
  const found = view.workflows.find((w) => w.workflow.id === reference || w.workflow.identifier === reference || w.workflow.slug === reference);
  return found ? toInboxWorkflowPreference(found) : toInboxGlobalPreference(view);
}
