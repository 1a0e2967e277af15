import { PROVIDERS } from '@app/integrations';
import { requiredKeys } from './http/credential-schema';
import { createProviderRegistry, InMemoryProviderRegistry } from './provider.registry';

describe('provider registry', () => {
  const registry = createProviderRegistry({ allowPrivateNetworkTargets: false });

  it('finds providers by channel and id', () => {
    expect(registry.get('chat', 'chat-webhook')?.id).toBe('chat-webhook');
    expect(registry.get('push', 'push-webhook')?.channel).toBe('push');
    expect(registry.get('sms', 'chat-webhook')).toBeUndefined();
    expect(registry.get('email', 'no-such-provider')).toBeUndefined();
  });

  it('ships an adapter for every provider of the catalogue (in-app is stored, not sent)', () => {
    const catalogue = PROVIDERS.filter((p) => p.channel !== 'in_app').map((p) => `${p.channel}:${p.id}`);
    expect(
      registry
        .list()
        .map((p) => `${p.channel}:${p.id}`)
        .sort(),
    ).toEqual(catalogue.sort());
  });

  it.each(PROVIDERS.filter((p) => p.channel !== 'in_app').map((p) => [p.id, p] as const))(
    '%s: the adapter reads exactly the credentials the catalogue lists, requiring the same ones',
    (_id, described) => {
      const adapter = registry.get(described.channel as 'email', described.id)!;
      expect(requiredKeys(adapter.credentialSchema).sort()).toEqual([...described.requiredCredentials].sort());
      expect(Object.keys(adapter.credentialSchema).sort()).toEqual([...described.requiredCredentials, ...described.optionalCredentials].sort());
    },
  );

  it('refuses duplicate ids within a channel', () => {
    const provider = { id: 'x', channel: 'chat' as const, send: jest.fn(), credentialSchema: {} };
    expect(() => new InMemoryProviderRegistry([provider, provider])).toThrow('registered twice');
  });
});
