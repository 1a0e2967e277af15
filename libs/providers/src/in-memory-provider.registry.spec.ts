import { createProviderRegistry, InMemoryProviderRegistry } from './in-memory-provider.registry';

describe('provider registry', () => {
  it('finds the shipped providers by id', () => {
    const registry = createProviderRegistry({ allowPrivateNetworkTargets: false });
    expect(registry.get('chat-webhook')?.channel).toBe('chat');
    expect(registry.get('push-webhook')?.channel).toBe('push');
    expect(registry.has('sendgrid')).toBe(false);
    expect(registry.get('sendgrid')).toBeUndefined();
    expect(registry.list().map((p) => p.id).sort()).toEqual(['chat-webhook', 'push-webhook']);
  });

  it('refuses duplicate ids', () => {
    const provider = { id: 'x', channel: 'chat' as const, send: jest.fn() };
    expect(() => new InMemoryProviderRegistry([provider, provider])).toThrow('registered twice');
  });
});
