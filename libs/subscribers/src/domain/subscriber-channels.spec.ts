import { DeviceTokensLimitExceededError } from './errors';
import { applyChannelCredentials, removeProviderChannels, sameChannels } from './subscriber-channels';
import { SubscriberChannel } from './subscriber';

describe('applyChannelCredentials', () => {
  const fcm = (credentials: SubscriberChannel['credentials'], integrationId = 'i1'): SubscriberChannel => ({
    providerId: 'fcm',
    integrationId,
    credentials,
  });
  const update = (credentials: SubscriberChannel['credentials'], integrationId = 'i1') => ({ providerId: 'fcm', integrationId, credentials });

  it('adds a new entry, de-duplicating tokens', () => {
    expect(applyChannelCredentials([], update({ deviceTokens: ['a', 'a', 'b'] }), 'replace')).toEqual([fcm({ deviceTokens: ['a', 'b'] })]);
  });

  it('replace swaps the tokens, append keeps the union', () => {
    const stored = [fcm({ deviceTokens: ['a', 'b'] })];
    expect(applyChannelCredentials(stored, update({ deviceTokens: ['c'] }), 'replace')[0].credentials.deviceTokens).toEqual(['c']);
    expect(applyChannelCredentials(stored, update({ deviceTokens: ['b', 'c'] }), 'append')[0].credentials.deviceTokens).toEqual(['a', 'b', 'c']);
  });

  it('keeps stored tokens when the update leaves them out, clears them on an explicit []', () => {
    const stored = [fcm({ deviceTokens: ['a'], webhookUrl: 'https://old' })];
    for (const mode of ['replace', 'append'] as const) {
      expect(applyChannelCredentials(stored, update({ webhookUrl: 'https://new' }), mode)[0].credentials).toEqual({
        deviceTokens: ['a'],
        webhookUrl: 'https://new',
      });
      expect(applyChannelCredentials(stored, update({ deviceTokens: [] }), mode)[0].credentials.deviceTokens).toEqual([]);
    }
  });

  it('matches entries on provider and integration', () => {
    const stored = [fcm({ deviceTokens: ['a'] }, 'i1')];
    const next = applyChannelCredentials(stored, update({ deviceTokens: ['b'] }, 'i2'), 'append');
    expect(next.map((c) => c.integrationId)).toEqual(['i1', 'i2']);
  });

  it('refuses more than 100 tokens, reporting the count', () => {
    const stored = [fcm({ deviceTokens: Array.from({ length: 99 }, (_, i) => `t${i}`) })];
    expect(applyChannelCredentials(stored, update({ deviceTokens: ['x'] }), 'append')[0].credentials.deviceTokens).toHaveLength(100);
    try {
      applyChannelCredentials(stored, update({ deviceTokens: ['x', 'y'] }), 'append');
      throw new Error('expected a limit error');
    } catch (error) {
      expect(error).toBeInstanceOf(DeviceTokensLimitExceededError);
      expect((error as DeviceTokensLimitExceededError).details).toEqual({ currentCount: 101, limit: 100 });
    }
  });

  it('compares channel lists structurally and removes a provider with its Slack aliases', () => {
    expect(sameChannels([fcm({ webhookUrl: 'u', deviceTokens: [] })], [fcm({ deviceTokens: [], webhookUrl: 'u' })])).toBe(true);
    expect(sameChannels([fcm({ deviceTokens: ['a'] })], [fcm({ deviceTokens: ['b'] })])).toBe(false);
    const slack: SubscriberChannel = { providerId: 'slack', integrationId: 's', credentials: {} };
    expect(removeProviderChannels([fcm({}), slack], 'service-slack')).toEqual([fcm({})]);
    expect(removeProviderChannels([fcm({}), slack], 'fcm')).toEqual([slack]);
  });
});
