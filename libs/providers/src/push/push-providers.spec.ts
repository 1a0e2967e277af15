import { findProvider, PROVIDERS } from '@app/integrations';
import { CredentialSchema, requiredKeys } from '../http/credential-schema';
import { createProviderRuntime } from '../provider-runtime';
import { APNS_CREDENTIALS } from './apns/apns.provider';
import { EXPO_CREDENTIALS } from './expo/expo.provider';
import { FCM_CREDENTIALS } from './fcm/fcm.provider';
import { pushProviders } from './index';
import { ONE_SIGNAL_CREDENTIALS } from './one-signal/one-signal.provider';
import { PUSH_WEBHOOK_CREDENTIALS } from './push-webhook/push-webhook.provider';
import { PUSHER_BEAMS_CREDENTIALS } from './pusher-beams/pusher-beams.provider';
import { PUSHPAD_CREDENTIALS } from './pushpad/pushpad.provider';

const SCHEMAS: Record<string, CredentialSchema> = {
  fcm: FCM_CREDENTIALS,
  apns: APNS_CREDENTIALS,
  expo: EXPO_CREDENTIALS,
  'one-signal': ONE_SIGNAL_CREDENTIALS,
  pushpad: PUSHPAD_CREDENTIALS,
  'pusher-beams': PUSHER_BEAMS_CREDENTIALS,
  'push-webhook': PUSH_WEBHOOK_CREDENTIALS,
};

/** In the catalogue, not shipped: AppIO (Italy's public-services app) has no adapter yet. */
const NOT_SHIPPED = ['appio'];

describe('push providers', () => {
  const providers = pushProviders(createProviderRuntime({ allowPrivateNetworkTargets: false }));

  it('registers every push provider of the catalogue but AppIO, each once', () => {
    const catalogue = PROVIDERS.filter((p) => p.channel === 'push' && !NOT_SHIPPED.includes(p.id)).map((p) => p.id);
    expect(providers.map((p) => p.id).sort()).toEqual(catalogue.sort());
    expect(Object.keys(SCHEMAS).sort()).toEqual(catalogue.sort());
    expect(providers.every((p) => p.channel === 'push')).toBe(true);
  });

  it.each(Object.entries(SCHEMAS))('%s requires exactly what the catalogue requires', (id, schema) => {
    expect(requiredKeys(schema).sort()).toEqual([...findProvider(id)!.requiredCredentials].sort());
  });
});
