import { InvalidWebhookSignatureError } from '@app/delivery';
import { CredentialsSigner, inbound } from '../../../../test/fakes/vendor-event-signers';
import { InfobipEventSource } from './infobip.events';

describe('InfobipEventSource', () => {
  const signer = new CredentialsSigner();
  const source = new InfobipEventSource();
  const keys = { credentials: {}, signingKey: signer.credentials };
  const now = new Date();
  const undeliverable = {
    bulkId: 'bulk-1',
    messageId: 'our-message-id',
    to: '41793026727',
    sentAt: '2024-11-22T10:00:00.000+0000',
    doneAt: '2024-11-22T10:00:05.000+0000',
    status: { groupId: 2, groupName: 'UNDELIVERABLE', id: 9, name: 'UNDELIVERABLE_NOT_DELIVERED', description: 'Message sent not delivered' },
    error: { groupId: 1, groupName: 'HANDSET_ERRORS', id: 1, name: 'EC_UNKNOWN_SUBSCRIBER', description: 'Unknown Subscriber', permanent: true },
  };
  const delivered = {
    ...undeliverable,
    messageId: 'other-id',
    status: { groupId: 3, groupName: 'DELIVERED', id: 5, name: 'DELIVERED_TO_HANDSET', description: 'Message delivered to handset' },
    error: { groupId: 0, groupName: 'OK', id: 0, name: 'NO_ERROR', description: 'No Error', permanent: false },
  };

  it('takes Basic credentials or the bearer token; reads each final report, our id being the message id', () => {
    const batch = source.parse(inbound(signer.sign({ results: [undeliverable, delivered, { ...delivered, status: { groupName: 'PENDING' } }] })), keys, now);
    expect(batch).toMatchObject({
      kind: 'events',
      events: [
        {
          key: 'our-message-id:UNDELIVERABLE_NOT_DELIVERED',
          type: 'undelivered',
          permanent: true,
          messageId: 'our-message-id',
          vendorMessageIds: ['our-message-id'],
          recipient: '41793026727',
          reason: 'EC_UNKNOWN_SUBSCRIBER: Unknown Subscriber',
          occurredAt: new Date('2024-11-22T10:00:05Z'),
        },
        { key: 'other-id:DELIVERED_TO_HANDSET', type: 'delivered', permanent: false },
      ],
    });
    expect(batch.kind === 'events' && batch.events).toHaveLength(2);
    expect(source.parse(inbound(signer.sign({ results: [delivered] }, { scheme: 'Bearer' })), keys, now)).toMatchObject({ events: [{ type: 'delivered' }] });
  });

  it('refuses wrong credentials, a wrong token and none', () => {
    expect(() => source.parse(inbound(signer.sign({ results: [] }, { credentials: 'hook:wrong' })), keys, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound(signer.sign({ results: [] }, { scheme: 'Bearer', credentials: 'x' })), keys, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound({ body: '{"results":[]}', headers: {} }), keys, now)).toThrow(InvalidWebhookSignatureError);
  });
});
