import { InvalidWebhookSignatureError } from '@app/delivery';
import { CredentialsSigner, inbound } from '../../../../test/fakes/vendor-event-signers';
import { PostmarkEventSource } from './postmark.events';

describe('PostmarkEventSource', () => {
  const signer = new CredentialsSigner();
  const source = new PostmarkEventSource();
  const keys = { credentials: {}, signingKey: signer.credentials };
  const now = new Date();
  const bounce = {
    RecordType: 'Bounce',
    ID: 42,
    Type: 'HardBounce',
    MessageID: 'pm-1',
    Email: 'd@example.com',
    BouncedAt: '2024-11-22T10:00:00Z',
    Description: 'The server was unable to deliver your message',
  };

  it('checks the Basic credentials and reads a hard bounce; the same record gives the same key', () => {
    const first = source.parse(inbound(signer.sign(bounce)), keys, now);
    expect(first).toMatchObject({ events: [{ type: 'bounced', permanent: true, vendorMessageIds: ['pm-1'], recipient: 'd@example.com' }] });
    expect(source.parse(inbound(signer.sign(bounce)), keys, now)).toEqual(first);
    expect(source.parse(inbound(signer.sign({ ...bounce, Type: 'SoftBounce' })), keys, now)).toMatchObject({ events: [{ permanent: false }] });
    expect(
      source.parse(
        inbound(signer.sign({ RecordType: 'Delivery', MessageID: 'pm-1', Recipient: 'd@example.com', DeliveredAt: '2024-11-22T10:00:00Z' })),
        keys,
        now,
      ),
    ).toMatchObject({ events: [{ type: 'delivered' }] });
  });

  it('refuses wrong or missing credentials', () => {
    expect(() => source.parse(inbound(signer.sign(bounce, { credentials: 'hook:wrong' })), keys, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound({ body: JSON.stringify(bounce), headers: {} }), keys, now)).toThrow(InvalidWebhookSignatureError);
  });
});
