import { randomBytes } from 'node:crypto';
import { InvalidWebhookSignatureError } from '@app/delivery';
import { TwilioSigner, inbound } from '../../../../test/fakes/vendor-event-signers';
import { TwilioEventSource } from './twilio.events';

describe('TwilioEventSource', () => {
  const token = randomBytes(16).toString('hex');
  const signer = new TwilioSigner(token);
  const source = new TwilioEventSource();
  const url = 'https://api.example.com/v2/inbound-webhooks/delivery-providers/e/i';
  const now = new Date();
  const params = { MessageSid: 'SM123', MessageStatus: 'undelivered', To: '+15555550100', ErrorCode: '30006', AccountSid: 'AC1' };

  it('verifies X-Twilio-Signature with the auth token credential over URL and sorted parameters', () => {
    expect(source.parse(inbound(signer.sign(url, params), url), { credentials: { token } }, now)).toMatchObject({
      events: [{ key: 'SM123:undelivered', type: 'undelivered', permanent: true, vendorMessageIds: ['SM123'], recipient: '+15555550100' }],
    });
    expect(source.parse(inbound(signer.sign(url, { ...params, MessageStatus: 'sent' }), url), { credentials: { token } }, now)).toEqual({
      kind: 'events',
      events: [],
    });
  });

  it('refuses another URL, another token and a changed parameter', () => {
    const signed = signer.sign(url, params);
    expect(() => source.parse(inbound(signed, url + '?x=1'), { credentials: { token } }, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound(signed, url), { credentials: { token: 'other' } }, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound({ ...signed, body: signed.body.replace('undelivered', 'delivered') }, url), { credentials: { token } }, now)).toThrow(
      InvalidWebhookSignatureError,
    );
  });
});
