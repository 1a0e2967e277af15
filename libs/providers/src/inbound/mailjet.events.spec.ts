import { InvalidWebhookSignatureError } from '@app/delivery';
import { CredentialsSigner, inbound } from '../../../../test/fakes/vendor-event-signers';
import { MailjetEventSource } from './mailjet.events';

describe('MailjetEventSource', () => {
  const signer = new CredentialsSigner();
  const source = new MailjetEventSource();
  const keys = { credentials: {}, signingKey: signer.credentials };
  const now = new Date();
  const bounce = {
    event: 'bounce',
    time: 1700000000,
    MessageID: '0',
    Message_GUID: '1ab23cd4-e567-8901-2345-6789f0gh1i2j',
    email: 'b@example.com',
    CustomID: 'our-message-id',
    hard_bounce: true,
    error_related_to: 'recipient',
    error: 'user unknown',
  };
  /** Mailjet writes MessageID as a bare integer beyond Number.MAX_SAFE_INTEGER. */
  const withBigId = (signed: { body: string; headers: Record<string, string> }) => ({
    ...signed,
    body: signed.body.replace(/"MessageID":"0"/g, '"MessageID":1152921504606846976'),
  });

  it('checks the Basic credentials and reads a grouped batch, keeping every digit of the MessageID', () => {
    const batch = source.parse(inbound(withBigId(signer.sign([bounce, { ...bounce, event: 'sent', hard_bounce: undefined }]))), keys, now);
    expect(batch).toMatchObject({
      kind: 'events',
      events: [
        {
          type: 'bounced',
          permanent: true,
          messageId: 'our-message-id',
          recipient: 'b@example.com',
          reason: 'recipient: user unknown',
          vendorMessageIds: ['1152921504606846976', bounce.Message_GUID],
          occurredAt: new Date(1700000000_000),
        },
        { type: 'delivered', permanent: false },
      ],
    });
  });

  it('reads a single event too, soft bounces as not permanent, ignores what it does not track; a replay has the same key', () => {
    const one = source.parse(inbound(signer.sign({ ...bounce, hard_bounce: false })), keys, now);
    expect(one).toMatchObject({ events: [{ type: 'bounced', permanent: false }] });
    expect(source.parse(inbound(signer.sign({ ...bounce, hard_bounce: false })), keys, now)).toEqual(one);
    expect(
      source.parse(
        inbound(
          signer.sign([
            { ...bounce, event: 'spam' },
            { ...bounce, event: 'unknown' },
          ]),
        ),
        keys,
        now,
      ),
    ).toMatchObject({
      events: [{ type: 'spam_report' }],
    });
    expect(source.parse(inbound(signer.sign({ event: 'open' })), keys, now)).toEqual({ kind: 'events', events: [] });
  });

  it('refuses wrong, missing or bearer credentials', () => {
    expect(() => source.parse(inbound(signer.sign(bounce, { credentials: 'hook:wrong' })), keys, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound(signer.sign(bounce, { scheme: 'Bearer' })), keys, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound({ body: JSON.stringify(bounce), headers: {} }), keys, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound(signer.sign(bounce)), { credentials: {} }, now)).toThrow(/inboundWebhookSigningKey/);
  });
});
