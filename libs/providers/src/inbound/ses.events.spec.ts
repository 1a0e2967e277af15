import { InvalidWebhookSignatureError } from '@app/delivery';
import { SnsSigner, inbound } from '../../../../test/fakes/vendor-event-signers';
import { SesEventSource } from './ses.events';

describe('SesEventSource (Amazon SNS signatures)', () => {
  const signer = new SnsSigner();
  const source = new SesEventSource();
  const keys = { credentials: {}, signingKey: signer.certificate };
  const now = new Date();
  const bounce = JSON.stringify({
    eventType: 'Bounce',
    mail: { messageId: 'ses-1', destination: ['e@example.com', 'f@example.com'], timestamp: '2024-11-22T10:00:00Z' },
    bounce: {
      bounceType: 'Permanent',
      timestamp: '2024-11-22T10:00:01Z',
      bouncedRecipients: [{ emailAddress: 'e@example.com', diagnosticCode: '550 5.1.1' }, { emailAddress: 'f@example.com' }],
    },
  });

  it('verifies the signature (versions 1 and 2) with the configured certificate and gives an event per bounced recipient', () => {
    for (const version of ['1', '2'] as const) {
      const batch = source.parse(inbound(signer.sign({ Type: 'Notification', MessageId: 'sns-1', Message: bounce }, { at: now, version })), keys, now);
      expect(batch).toMatchObject({
        kind: 'events',
        events: [
          { key: 'sns-1:e@example.com', type: 'bounced', permanent: true, vendorMessageIds: ['ses-1'], recipient: 'e@example.com', reason: '550 5.1.1' },
          { key: 'sns-1:f@example.com', recipient: 'f@example.com' },
        ],
      });
    }
  });

  it('verifies a SubscriptionConfirmation and answers its SubscribeURL', () => {
    const signed = signer.sign(
      {
        Type: 'SubscriptionConfirmation',
        Message: 'You have chosen to subscribe',
        Token: 'tok',
        SubscribeURL: 'https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=tok',
      },
      { at: now },
    );
    expect(source.parse(inbound(signed), keys, now)).toMatchObject({ kind: 'subscription', confirmUrl: expect.stringContaining('ConfirmSubscription') });
  });

  it('refuses a changed message, another certificate and a stale timestamp', () => {
    const signed = signer.sign({ Type: 'Notification', Message: bounce }, { at: now });
    expect(() => source.parse(inbound({ ...signed, body: signed.body.replace('Permanent', 'Transient') }), keys, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound(signed), { credentials: {}, signingKey: new SnsSigner().certificate }, now)).toThrow(InvalidWebhookSignatureError);
    expect(() =>
      source.parse(inbound(signer.sign({ Type: 'Notification', Message: bounce }, { at: new Date(now.getTime() - 6 * 60_000) })), keys, now),
    ).toThrow(/5 minutes/);
  });
});
