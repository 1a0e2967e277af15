import { ChannelProvider } from '@app/delivery';
import { ProviderRuntime } from '../provider-runtime';
import { PushWebhookProvider } from './push-webhook/push-webhook.provider';

/** Every push provider, by the ids of the interface. */
export function pushProviders(runtime: ProviderRuntime): ChannelProvider<'push'>[] {
  return [new PushWebhookProvider(runtime)];
}
