import { InvalidWebhookSignatureError } from '@app/delivery';
import { CredentialsSigner, inbound } from '../../../../test/fakes/vendor-event-signers';
import { SevenEventSource } from './seven.events';

describe('SevenEventSource', () => {
  const signer = new CredentialsSigner();
  const source = new SevenEventSource();
  const token = 'seven-hook-token';
  const keys = { credentials: {}, signingKey: token };
  const now = new Date();
  const dlr = (status: string, timestamp = '2024-11-22T10:00:00+00:00') => ({
    webhook_event: 'dlr',
    webhook_timestamp: '2024-11-22 11:00:01',
    data: { msg_id: '77165011234', status, timestamp },
  });

  it('takes the bearer token (or Basic credentials equal to the key) and reads a final report; none is permanent', () => {
    expect(source.parse(inbound(signer.sign(dlr('NOTDELIVERED'), { scheme: 'Bearer', credentials: token })), keys, now)).toEqual({
      kind: 'events',
      events: [
        {
          key: '77165011234:NOTDELIVERED',
          type: 'undelivered',
          vendorMessageIds: ['77165011234'],
          occurredAt: new Date('2024-11-22T10:00:00Z'),
          permanent: false,
          raw: { msg_id: '77165011234', status: 'NOTDELIVERED' },
        },
      ],
    });
    expect(source.parse(inbound(signer.sign(dlr('DELIVERED'), { credentials: token })), keys, now)).toMatchObject({ events: [{ type: 'delivered' }] });
  });

  it('uses the time of receipt for a time without a zone, and ignores reports that are not final or not DLRs', () => {
    const bearer = { scheme: 'Bearer' as const, credentials: token };
    expect(source.parse(inbound(signer.sign(dlr('DELIVERED', '2024-11-22 11:00:00'), bearer)), keys, now)).toMatchObject({ events: [{ occurredAt: now }] });
    expect(source.parse(inbound(signer.sign(dlr('BUFFERED'), bearer)), keys, now)).toEqual({ kind: 'events', events: [] });
    expect(source.parse(inbound(signer.sign({ ...dlr('DELIVERED'), webhook_event: 'sms_mo' }, bearer)), keys, now)).toEqual({ kind: 'events', events: [] });
  });

  it('refuses a wrong token and none', () => {
    expect(() => source.parse(inbound(signer.sign(dlr('DELIVERED'), { scheme: 'Bearer', credentials: 'wrong' })), keys, now)).toThrow(
      InvalidWebhookSignatureError,
    );
    expect(() => source.parse(inbound({ body: JSON.stringify(dlr('DELIVERED')), headers: {} }), keys, now)).toThrow(InvalidWebhookSignatureError);
  });
});
