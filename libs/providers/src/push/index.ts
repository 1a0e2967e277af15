import { ProviderAdapter, ProviderRuntime } from '../provider-runtime';
import { ApnsProvider } from './apns/apns.provider';
import { ExpoProvider } from './expo/expo.provider';
import { FcmProvider } from './fcm/fcm.provider';
import { OneSignalProvider } from './one-signal/one-signal.provider';
import { PushpadProvider } from './pushpad/pushpad.provider';
import { PusherBeamsProvider } from './pusher-beams/pusher-beams.provider';
import { PushWebhookProvider } from './push-webhook/push-webhook.provider';

/** Every push provider, by the ids of the interface. */
export function pushProviders(runtime: ProviderRuntime): ProviderAdapter<'push'>[] {
  return [
    new FcmProvider(runtime),
    new ApnsProvider(runtime),
    new ExpoProvider(runtime),
    new OneSignalProvider(runtime),
    new PushpadProvider(runtime),
    new PusherBeamsProvider(runtime),
    new PushWebhookProvider(runtime),
  ];
}
