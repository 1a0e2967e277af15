import { InvalidWebhookSignatureError } from '@app/delivery';
import { SendGridSigner, inbound } from '../../../../test/fakes/vendor-event-signers';
import { SendGridEventSource } from './sendgrid.events';

describe('SendGridEventSource', () => {
  const signer = new SendGridSigner();
  const source = new SendGridEventSource();
  const keys = { credentials: {}, signingKey: signer.verificationKey };
  const now = new Date();
  const events = [
    {
      email: 'a@example.com',
      timestamp: 1700000000,
      event: 'delivered',
      sg_event_id: 'ev-1',
      sg_message_id: 'xmsg.filter0001',
      id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
    },
    {
      email: 'a@example.com',
      timestamp: 1700000001,
      event: 'bounce',
      type: 'bounce',
      reason: '550 no such user',
      sg_event_id: 'ev-2',
      sg_message_id: 'xmsg.filter0001',
    },
    { email: 'a@example.com', timestamp: 1700000002, event: 'bounce', type: 'blocked', sg_event_id: 'ev-3', sg_message_id: 'xmsg.filter0001' },
    { email: 'a@example.com', timestamp: 1700000003, event: 'processed', sg_event_id: 'ev-4' },
  ];

  it('verifies the ECDSA signature and reads each tracked event', () => {
    const batch = source.parse(inbound(signer.sign(events, now)), keys, now);
    expect(batch).toMatchObject({
      kind: 'events',
      events: [
        {
          key: 'ev-1',
          type: 'delivered',
          messageId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
          vendorMessageIds: ['xmsg.filter0001', 'xmsg'],
          recipient: 'a@example.com',
          permanent: false,
        },
        { key: 'ev-2', type: 'bounced', permanent: true, reason: '550 no such user' },
        { key: 'ev-3', type: 'bounced', permanent: false },
      ],
    });
  });

  it('refuses a changed body, another key, a missing header and a stale timestamp', () => {
    const signed = signer.sign(events, now);
    expect(() => source.parse(inbound({ ...signed, body: signed.body.replace('delivered', 'open') }), keys, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound(signed), { credentials: {}, signingKey: new SendGridSigner().verificationKey }, now)).toThrow(
      InvalidWebhookSignatureError,
    );
    expect(() => source.parse(inbound({ ...signed, headers: { 'content-type': 'application/json' } }), keys, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound(signer.sign(events, new Date(now.getTime() - 6 * 60_000))), keys, now)).toThrow(/5 minutes/);
    expect(() => source.parse(inbound(signed), { credentials: {} }, now)).toThrow(/No SendGrid verification key/);
  });
});
