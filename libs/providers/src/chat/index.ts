import { ChannelProvider } from '@app/delivery';
import { ProviderRuntime } from '../provider-runtime';
import { ChatWebhookProvider } from './chat-webhook/chat-webhook.provider';

/** Every chat provider, by the ids of the interface. */
export function chatProviders(runtime: ProviderRuntime): ChannelProvider<'chat'>[] {
  return [new ChatWebhookProvider(runtime)];
}
