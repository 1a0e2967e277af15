import { createProviderRegistry, InMemoryProviderRegistry } from './provider.registry';

describe('provider registry', () => {
  it('finds the shipped providers by channel and id', () => {
    const registry = createProviderRegistry({ allowPrivateNetworkTargets: false });
    expect(registry.get('chat', 'chat-webhook')?.id).toBe('chat-webhook');
    expect(registry.get('push', 'push-webhook')?.channel).toBe('push');
    expect(registry.get('sms', 'chat-webhook')).toBeUndefined();
    expect(registry.get('email', 'no-such-provider')).toBeUndefined();
  });

  it('refuses duplicate ids within a channel', () => {
    const provider = { id: 'x', channel: 'chat' as const, send: jest.fn() };
    expect(() => new InMemoryProviderRegistry([provider, provider])).toThrow('registered twice');
  });
});
