import { randomBytes } from 'node:crypto';
import { DomainError } from '@app/kernel';
import { MailgunSigner, SendGridSigner, SnsSigner, SvixSigner, TelnyxSigner } from '../../../../test/fakes/vendor-event-signers';
import { VendorEventSourceRegistry } from './vendor-event-sources';

/** Whatever arrives, a source answers with events or a DomainError (401/400), never anything a 500 would come from. */
describe('VendorEventSourceRegistry', () => {
  const registry = new VendorEventSourceRegistry();
  const keys = [
    undefined,
    'short',
    new SendGridSigner().verificationKey,
    new MailgunSigner().signingKey,
    new SvixSigner().secret,
    new SnsSigner().certificate,
    new TelnyxSigner().publicKey,
    'user:pass',
  ];
  const bodies = [
    '',
    'not json',
    '[]',
    '{}',
    'null',
    '"x"',
    '[1,{"event":"delivered"}]',
    JSON.stringify({ signature: { timestamp: '1', token: 't', signature: 'zz' }, 'event-data': null }),
    JSON.stringify({ Type: 'Notification', Signature: '!!', Message: '{' }),
    randomBytes(64).toString('binary'),
  ];
  const headerSets = [
    {},
    { 'x-twilio-email-event-webhook-signature': 'MEUCIQ==', 'x-twilio-email-event-webhook-timestamp': 'abc' },
    { 'svix-id': 'a', 'svix-timestamp': '1', 'svix-signature': 'v1,@@@ v2 ,,' },
    { authorization: 'Basic ###' },
    { 'x-twilio-signature': 'x' },
    { 'x-plivo-signature-v3': 'a,b,', 'x-plivo-signature-v3-nonce': '1' },
    { 'telnyx-signature-ed25519': 'AAAA', 'telnyx-timestamp': '99999999999999' },
    { authorization: 'Bearer e30.e30.x' },
    { 'messagebird-signature-jwt': 'not-a-jwt', authorization: 'Bearer ###.@@@.!!!' },
  ];

  it('serves each vendor we read events from', () => {
    expect(registry.providerIds()).toEqual([
      'infobip-sms',
      'mailgun',
      'mailjet',
      'messagebird',
      'nexmo',
      'plivo',
      'postmark',
      'resend',
      'sendgrid',
      'sendinblue',
      'ses',
      'sms77',
      'telnyx',
      'twilio',
    ]);
  });

  it.each(registry.providerIds())('%s: garbage is refused with a DomainError or read as no events', (providerId) => {
    const source = registry.get(providerId)!;
    for (const signingKey of keys)
      for (const body of bodies)
        for (const headers of headerSets) {
          try {
            const batch = source.parse({ rawBody: Buffer.from(body), headers, url: 'https://x/y' }, { credentials: { token: 't' }, signingKey }, new Date());
            expect(['events', 'subscription']).toContain(batch.kind);
          } catch (error) {
            if (!(error instanceof DomainError))
              throw new Error(
                `${providerId} threw ${String(error)} for key ${String(signingKey).slice(0, 10)}, body ${body.slice(0, 20)}, headers ${JSON.stringify(headers)}`,
              );
          }
        }
  });
});
