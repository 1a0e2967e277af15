import { InvalidWebhookSignatureError } from '@app/delivery';
import { MailgunSigner, inbound } from '../../../../test/fakes/vendor-event-signers';
import { MailgunEventSource } from './mailgun.events';

describe('MailgunEventSource', () => {
  const signer = new MailgunSigner();
  const source = new MailgunEventSource();
  const keys = { credentials: {}, signingKey: signer.signingKey };
  const now = new Date();
  const failed = {
    id: 'ev-9',
    event: 'failed',
    severity: 'permanent',
    recipient: 'b@example.com',
    timestamp: 1700000000.5,
    message: { headers: { 'message-id': '2024.abc@mg.example.com' } },
    'delivery-status': { description: 'No such mailbox' },
  };

  it('verifies the HMAC and reads a permanent failure as a hard bounce, finding the message with or without angle brackets', () => {
    const batch = source.parse(inbound(signer.sign(failed, now)), keys, now);
    expect(batch).toMatchObject({
      kind: 'events',
      events: [{ key: 'ev-9', type: 'bounced', permanent: true, recipient: 'b@example.com', reason: 'No such mailbox' }],
    });
    expect(batch.kind === 'events' && batch.events[0].vendorMessageIds).toEqual(
      expect.arrayContaining(['2024.abc@mg.example.com', '<2024.abc@mg.example.com>']),
    );
  });

  it("reads our message id from user-variables (a batch send's messages share Mailgun's id)", () => {
    const batch = source.parse(inbound(signer.sign({ ...failed, 'user-variables': { id: 'msg-7', transactionId: 'tx' } }, now)), keys, now);
    expect(batch).toMatchObject({ events: [{ messageId: 'msg-7', vendorMessageIds: expect.arrayContaining(['2024.abc@mg.example.com']) }] });
    expect(source.parse(inbound(signer.sign(failed, now)), keys, now)).toMatchObject({
      events: [expect.not.objectContaining({ messageId: expect.anything() })],
    });
  });

  it('reads temporary failures as failed, complaints as spam reports, and ignores accepted', () => {
    const read = (data: Record<string, unknown>) => source.parse(inbound(signer.sign({ ...failed, ...data }, now)), keys, now);
    expect(read({ severity: 'temporary' })).toMatchObject({ events: [{ type: 'failed', permanent: false }] });
    expect(read({ event: 'complained' })).toMatchObject({ events: [{ type: 'spam_report' }] });
    expect(read({ event: 'accepted' })).toEqual({ kind: 'events', events: [] });
  });

  it('refuses a bad signature, another key and a stale timestamp', () => {
    const signed = JSON.parse(signer.sign(failed, now).body);
    signed.signature.signature = '0'.repeat(64);
    expect(() => source.parse(inbound({ body: JSON.stringify(signed), headers: {} }), keys, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound(signer.sign(failed, now)), { credentials: {}, signingKey: 'other' }, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound(signer.sign(failed, new Date(now.getTime() - 10 * 60_000))), keys, now)).toThrow(/5 minutes/);
  });
});
