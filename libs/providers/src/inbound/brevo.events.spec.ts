import { InvalidWebhookSignatureError } from '@app/delivery';
import { CredentialsSigner, inbound } from '../../../../test/fakes/vendor-event-signers';
import { BrevoEventSource } from './brevo.events';

describe('BrevoEventSource', () => {
  const signer = new CredentialsSigner();
  const source = new BrevoEventSource();
  const keys = { credentials: {}, signingKey: signer.credentials };
  const now = new Date();
  const bounce = {
    event: 'hard_bounce',
    email: 'h@example.com',
    id: 12345,
    'message-id': '<202411221000.123@smtp-relay.mailin.fr>',
    ts_event: 1700000000,
    'X-Mailin-custom': 'transactionId:tx-1|id:our-message-id',
    reason: 'unknown user',
  };

  it('takes Basic credentials or a bearer token equal to the key; reads a hard bounce with our id and the vendor id in both spellings', () => {
    const expected = {
      kind: 'events',
      events: [
        {
          type: 'bounced',
          permanent: true,
          messageId: 'our-message-id',
          recipient: 'h@example.com',
          reason: 'unknown user',
          vendorMessageIds: expect.arrayContaining(['<202411221000.123@smtp-relay.mailin.fr>', '202411221000.123@smtp-relay.mailin.fr']),
          occurredAt: new Date(1700000000_000),
        },
      ],
    };
    const basic = source.parse(inbound(signer.sign(bounce)), keys, now);
    expect(basic).toMatchObject(expected);
    expect(source.parse(inbound(signer.sign(bounce, { scheme: 'Bearer', credentials: signer.credentials })), keys, now)).toEqual(basic);
  });

  it('reads batches, soft bounces as not permanent, complaints as spam reports, and skips what it does not track', () => {
    const batch = source.parse(
      inbound(signer.sign([{ ...bounce, event: 'soft_bounce' }, { ...bounce, event: 'spam' }, { ...bounce, event: 'request' }, { event: 'delivered' }])),
      keys,
      now,
    );
    expect(batch).toMatchObject({ events: [{ type: 'bounced', permanent: false }, { type: 'spam_report' }] });
    expect(batch.kind === 'events' && batch.events).toHaveLength(2);
  });

  it('refuses wrong credentials and a wrong token', () => {
    expect(() => source.parse(inbound(signer.sign(bounce, { credentials: 'hook:wrong' })), keys, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound(signer.sign(bounce, { scheme: 'Bearer', credentials: 'wrong' })), keys, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound({ body: JSON.stringify(bounce), headers: {} }), keys, now)).toThrow(InvalidWebhookSignatureError);
  });
});
