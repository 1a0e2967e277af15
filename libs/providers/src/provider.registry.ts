import { DeliveryChannel, ProviderRegistry } from '@app/delivery';
import { chatProviders } from './chat';
import { emailProviders } from './email';
import { ProviderAdapter, ProviderRuntime, ProviderRuntimeOptions, createProviderRuntime } from './provider-runtime';
import { pushProviders } from './push';
import { smsProviders } from './sms';

export class InMemoryProviderRegistry implements ProviderRegistry {
  private readonly byKey = new Map<string, ProviderAdapter>();

  constructor(providers: ProviderAdapter[]) {
    for (const provider of providers) {
      const key = `${provider.channel}:${provider.id}`;
      if (this.byKey.has(key)) throw new Error(`Provider ${provider.id} is registered twice for ${provider.channel}`);
      this.byKey.set(key, provider);
    }
  }

  get<C extends DeliveryChannel>(channel: C, providerId: string): ProviderAdapter<C> | undefined {
    return this.byKey.get(`${channel}:${providerId}`) as ProviderAdapter<C> | undefined;
  }

  list(): ProviderAdapter[] {
    return [...this.byKey.values()];
  }

  /** Ends what adapters keep open (APNs HTTP/2 sessions). */
  async close(): Promise<void> {
    await Promise.all(this.list().map(async (provider) => (provider as { close?: () => Promise<void> }).close?.()));
  }
}

/** Every provider this build ships, each built with the same runtime. */
export function createProviderRegistry(options: ProviderRuntimeOptions | ProviderRuntime): InMemoryProviderRegistry {
  const runtime = 'http' in options ? options : createProviderRuntime(options);
  return new InMemoryProviderRegistry([
    ...emailProviders(runtime),
    ...smsProviders(runtime),
    ...chatProviders(runtime),
    ...pushProviders(runtime),
  ] as ProviderAdapter[]);
}
