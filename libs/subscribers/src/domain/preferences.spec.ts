import { allChannels } from '@app/kernel';
import { PreferenceWorkflowInfo, SubscriberPreference, buildPreferencesView, resolveChannelPreferences } from './preferences';

const record = (workflowId: string | null, channels: SubscriberPreference['channels']): SubscriberPreference => ({
  organizationId: 'o',
  environmentId: 'e',
  subscriberId: 's',
  workflowId,
  channels,
  createdAt: new Date('2024-01-01T00:00:00Z'),
  updatedAt: new Date('2024-01-02T00:00:00Z'),
});

describe('resolveChannelPreferences', () => {
  it('layers workflow defaults, subscriber global, then subscriber per-workflow', () => {
    const resolved = resolveChannelPreferences({
      workflow: { critical: false, preferenceSettings: { ...allChannels(true), sms: false } },
      global: { channels: { email: false, chat: false } },
      subscriberWorkflow: { channels: { email: true } },
    });
    expect(resolved.channels).toEqual({ in_app: true, email: true, sms: false, chat: false, push: true });
    expect(resolved.sources).toEqual({
      in_app: 'workflow',
      email: 'subscriber_workflow',
      sms: 'workflow',
      chat: 'subscriber_global',
      push: 'workflow',
    });
    expect(resolved.readOnly).toBe(false);
  });

  it('ignores subscriber opt-outs on critical workflows', () => {
    const resolved = resolveChannelPreferences({
      workflow: { critical: true, preferenceSettings: allChannels(true) },
      global: { channels: { email: false } },
      subscriberWorkflow: { channels: { in_app: false } },
    });
    expect(resolved.channels).toEqual(allChannels(true));
    expect(resolved.readOnly).toBe(true);
  });

  it("a subscriber's switch turned off (global first, then the workflow's) disables it, channels kept; critical ignores it", () => {
    const workflow = { critical: false, preferenceSettings: allChannels(true) };
    expect(resolveChannelPreferences({ workflow })).toMatchObject({ enabled: true });
    expect(resolveChannelPreferences({ workflow })).not.toHaveProperty('disabledBy');
    const off = resolveChannelPreferences({
      workflow,
      global: { channels: {}, enabled: true },
      subscriberWorkflow: { channels: { sms: false }, enabled: false },
    });
    expect(off).toMatchObject({ enabled: false, disabledBy: 'subscriber_workflow', channels: { ...allChannels(true), sms: false } });
    const globalOff = resolveChannelPreferences({ workflow, global: { channels: {}, enabled: false }, subscriberWorkflow: { channels: {}, enabled: false } });
    expect(globalOff).toMatchObject({ enabled: false, disabledBy: 'subscriber_global' });
    const critical = resolveChannelPreferences({ workflow: { ...workflow, critical: true }, global: { channels: {}, enabled: false } });
    expect(critical).toMatchObject({ enabled: true, readOnly: true });
  });

  it('lets a channel no layer mentions inherit enabled (on)', () => {
    const resolved = resolveChannelPreferences({ workflow: { critical: false, preferenceSettings: { email: false } } });
    expect(resolved.channels).toEqual({ in_app: true, email: false, sms: true, chat: true, push: true });
    expect(resolved.enabled).toBe(true);
  });
});

describe('buildPreferencesView', () => {
  const workflow = (id: string, channels: PreferenceWorkflowInfo['channels'], critical = false): PreferenceWorkflowInfo => ({
    id,
    name: id,
    identifier: id,
    slug: `${id}_wf_${id}`,
    updatedAt: new Date('2024-01-03T00:00:00Z'),
    critical,
    preferenceSettings: allChannels(true),
    channels,
  });

  it('lists channels in use globally and per workflow, with overrides and the subscriber timestamp', () => {
    const a = workflow('a', ['email', 'in_app']);
    const b = workflow('b', ['sms']);
    const view = buildPreferencesView({
      activeWorkflows: [a, b],
      listed: [a, b],
      preferences: [record(null, { sms: false, push: false }), record('a', { email: false })],
    });
    expect(view.global.channels).toEqual({ email: true, in_app: true, sms: false, push: false });
    expect(view.workflows[0]).toMatchObject({
      channels: { email: false, in_app: true },
      overrides: [
        { channel: 'email', source: 'subscriber' },
        { channel: 'in_app', source: 'template' },
      ],
      updatedAt: new Date('2024-01-02T00:00:00Z'),
    });
    expect(view.workflows[1]).toMatchObject({ channels: { sms: false }, overrides: [{ channel: 'sms', source: 'subscriber' }] });
    expect(view.workflows[1].updatedAt).toBeUndefined();
  });

  it('does not show a timestamp for a workflow record emptied by a global change', () => {
    const a = workflow('a', ['email']);
    const view = buildPreferencesView({ activeWorkflows: [a], listed: [a], preferences: [record('a', {})] });
    expect(view.workflows[0].updatedAt).toBeUndefined();
  });
});
