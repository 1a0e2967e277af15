import { CHANNELS, Channel, ChannelFlags } from '@app/kernel';
import type { Schedule } from './preferences-schedule';

/**
 * A subscriber's stored choices: one record for their global preferences (`workflowId: null`,
 * which also holds the quiet-hours schedule) and one per workflow they changed. Channels
 * hold only what the subscriber set; anything absent falls through to the layer below.
 */
export interface SubscriberPreference {
  organizationId: string;
  environmentId: string;
  /** The subscriber's internal id (not the caller's subscriberId), so a re-created subscriber starts fresh. */
  subscriberId: string;
  /** The workflow's internal id; null for the global record. */
  workflowId: string | null;
  channels: Partial<ChannelFlags>;
  schedule?: Schedule;
  /**
   * Novu's v1 switch (`enabled` of its v1 preference routes): false turns the workflow (or, on the
   * global record, every workflow) off for the subscriber whatever its channels say; absent: on.
   */
  enabled?: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** Which layer decided a channel. */
export type PreferenceSource = 'workflow' | 'subscriber_global' | 'subscriber_workflow';

export interface WorkflowPreferenceDefaults {
  critical: boolean;
  /** The workflow's defaults; a channel it leaves out is on. */
  preferenceSettings?: Partial<ChannelFlags>;
}

export interface ResolvedChannelPreferences {
  /** Novu's `all.enabled`: false when the subscriber switched the workflow, or everything, off (v1 routes). */
  enabled: boolean;
  /** Which record's switch turned it off (the global one wins); absent while enabled. */
  disabledBy?: 'subscriber_global' | 'subscriber_workflow';
  /** True for critical workflows: subscriber choices were not applied. */
  readOnly: boolean;
  channels: ChannelFlags;
  sources: Record<Channel, PreferenceSource>;
}

/** Which switch is off, the global one first; a critical workflow ignores both (as it ignores the channels). */
function switchedOffBy(
  global: Pick<SubscriberPreference, 'enabled'> | null | undefined,
  workflow: Pick<SubscriberPreference, 'enabled'> | null | undefined,
): ResolvedChannelPreferences['disabledBy'] {
  if (global?.enabled === false) return 'subscriber_global';
  if (workflow?.enabled === false) return 'subscriber_workflow';
  return undefined;
}

/**
 * The preference merge the delivery engine gates channel steps with: workflow defaults, then
 * the subscriber's global choices, then their choices for this workflow, each later layer
 * winning per channel; a subscriber's switch (global or of the workflow) turned off mutes every channel.
 * A critical workflow ignores the subscriber's layers altogether.
 */
export function resolveChannelPreferences(input: {
  workflow: WorkflowPreferenceDefaults;
  global?: Pick<SubscriberPreference, 'channels' | 'enabled'> | null;
  subscriberWorkflow?: Pick<SubscriberPreference, 'channels' | 'enabled'> | null;
}): ResolvedChannelPreferences {
  const readOnly = input.workflow.critical;
  const disabledBy = readOnly ? undefined : switchedOffBy(input.global, input.subscriberWorkflow);
  const layers: [PreferenceSource, Partial<ChannelFlags> | undefined][] = [['workflow', input.workflow.preferenceSettings]];
  if (!readOnly) layers.push(['subscriber_global', input.global?.channels], ['subscriber_workflow', input.subscriberWorkflow?.channels]);
  const channels = {} as ChannelFlags;
  const sources = {} as Record<Channel, PreferenceSource>;
  for (const channel of CHANNELS) {
    channels[channel] = true;
    sources[channel] = 'workflow';
    for (const [source, values] of layers) {
      const value = values?.[channel];
      if (typeof value === 'boolean') {
        channels[channel] = value;
        sources[channel] = source;
      }
    }
  }
  return { enabled: !disabledBy, ...(disabledBy ? { disabledBy } : {}), readOnly, channels, sources };
}

/** What the preferences view needs to know about a workflow. */
export interface PreferenceWorkflowInfo extends WorkflowPreferenceDefaults {
  id: string;
  name: string;
  identifier: string;
  slug: string;
  updatedAt: Date;
  /** Channels of the workflow's active steps, the only ones its preferences list. */
  channels: Channel[];
}

export interface WorkflowPreferencesView {
  enabled: boolean;
  channels: Partial<ChannelFlags>;
  overrides: { channel: Channel; source: 'subscriber' | 'template' }[];
  workflow: PreferenceWorkflowInfo;
  /** When the subscriber last set a preference for this workflow; absent if they never did. */
  updatedAt?: Date;
}

export interface SubscriberPreferencesView {
  global: { enabled: boolean; channels: Partial<ChannelFlags>; schedule?: Schedule };
  workflows: WorkflowPreferencesView[];
}

/**
 * The GET preferences answer. Global channels are those some active workflow delivers through
 * (plus any the subscriber set); each workflow lists the channels of its own active steps.
 */
export function buildPreferencesView(input: {
  /** Every active workflow: they decide which channels are in use. */
  activeWorkflows: PreferenceWorkflowInfo[];
  /** The ones to list (filtered by criticality). */
  listed: PreferenceWorkflowInfo[];
  preferences: SubscriberPreference[];
}): SubscriberPreferencesView {
  const global = input.preferences.find((p) => p.workflowId === null) ?? null;
  const byWorkflow = new Map(input.preferences.filter((p) => p.workflowId !== null).map((p) => [p.workflowId!, p]));
  const inUse = new Set<Channel>(input.activeWorkflows.flatMap((w) => w.channels));
  for (const channel of CHANNELS) if (typeof global?.channels[channel] === 'boolean') inUse.add(channel);
  const globalChannels: Partial<ChannelFlags> = {};
  for (const channel of CHANNELS) if (inUse.has(channel)) globalChannels[channel] = global?.channels[channel] ?? true;

  const workflows = input.listed.map((workflow): WorkflowPreferencesView => {
    const own = byWorkflow.get(workflow.id) ?? null;
    const resolved = resolveChannelPreferences({ workflow, global, subscriberWorkflow: own });
    const channels: Partial<ChannelFlags> = {};
    for (const channel of workflow.channels) channels[channel] = resolved.channels[channel];
    const setBySubscriber = own && (typeof own.enabled === 'boolean' || Object.values(own.channels).some((v) => typeof v === 'boolean'));
    return {
      enabled: resolved.enabled,
      channels,
      overrides: workflow.channels.map((channel) => ({ channel, source: resolved.sources[channel] === 'workflow' ? 'template' : 'subscriber' })),
      workflow,
      ...(setBySubscriber ? { updatedAt: own.updatedAt } : {}),
    };
  });
  return { global: { enabled: global?.enabled !== false, channels: globalChannels, ...(global?.schedule ? { schedule: global.schedule } : {}) }, workflows };
}
