import { ChannelProvider, ProviderRegistry } from '@app/delivery';
import { ChatWebhookProvider } from './chat/chat-webhook.provider';
import { PushWebhookProvider } from './push/push-webhook.provider';

export class InMemoryProviderRegistry implements ProviderRegistry {
  private readonly byId = new Map<string, ChannelProvider>();

  constructor(providers: ChannelProvider[]) {
    for (const provider of providers) {
      if (this.byId.has(provider.id)) throw new Error(`Provider ${provider.id} is registered twice`);
      this.byId.set(provider.id, provider);
    }
  }

  get(providerId: string): ChannelProvider | undefined {
    return this.byId.get(providerId);
  }

  has(providerId: string): boolean {
    return this.byId.has(providerId);
  }

  list(): ChannelProvider[] {
    return [...this.byId.values()];
  }
}

export interface ProviderSetOptions {
  allowPrivateNetworkTargets: boolean;
  webhookTimeoutMs?: number;
}

/** Every provider this build ships. */
export function createProviderRegistry(options: ProviderSetOptions): InMemoryProviderRegistry {
  const webhook = { allowPrivateNetworkTargets: options.allowPrivateNetworkTargets, timeoutMs: options.webhookTimeoutMs };
  return new InMemoryProviderRegistry([new ChatWebhookProvider(webhook), new PushWebhookProvider(webhook)]);
}
