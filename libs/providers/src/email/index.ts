import { ChannelProvider } from '@app/delivery';
import { ProviderRuntime } from '../provider-runtime';
import { SendgridProvider } from './sendgrid/sendgrid.provider';

/** Every email provider. */
export function emailProviders(runtime: ProviderRuntime): ChannelProvider<'email'>[] {
  return [new SendgridProvider(runtime)];
}
