import { ChannelProvider } from '@app/delivery';
import { ProviderRuntime } from '../provider-runtime';

/** Every SMS provider. */
export function smsProviders(_runtime: ProviderRuntime): ChannelProvider<'sms'>[] {
  return [];
}
