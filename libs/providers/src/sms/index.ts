import { ProviderAdapter, ProviderRuntime } from '../provider-runtime';
import { GenericSmsProvider } from './generic-sms/generic-sms.provider';
import { InfobipSmsProvider } from './infobip-sms/infobip-sms.provider';
import { MessagebirdProvider } from './messagebird/messagebird.provider';
import { NexmoProvider } from './nexmo/nexmo.provider';
import { PlivoProvider } from './plivo/plivo.provider';
import { Sms77Provider } from './sms77/sms77.provider';
import { SnsProvider } from './sns/sns.provider';
import { TelnyxProvider } from './telnyx/telnyx.provider';
import { TwilioProvider } from './twilio/twilio.provider';

/** Every SMS provider. */
export function smsProviders(runtime: ProviderRuntime): ProviderAdapter<'sms'>[] {
  return [
    new TwilioProvider(runtime),
    new NexmoProvider(runtime),
    new PlivoProvider(runtime),
    new SnsProvider(runtime),
    new MessagebirdProvider(runtime),
    new TelnyxProvider(runtime),
    new InfobipSmsProvider(runtime),
    new Sms77Provider(runtime),
    new GenericSmsProvider(runtime),
  ];
}
