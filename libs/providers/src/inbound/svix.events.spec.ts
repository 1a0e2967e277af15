import { InvalidWebhookSignatureError } from '@app/delivery';
import { SvixSigner, inbound } from '../../../../test/fakes/vendor-event-signers';
import { ResendEventSource } from './svix.events';

describe('ResendEventSource (Svix signatures)', () => {
  const signer = new SvixSigner();
  const source = new ResendEventSource();
  const keys = { credentials: {}, signingKey: signer.secret };
  const now = new Date();
  const bounced = {
    type: 'email.bounced',
    created_at: '2024-11-22T23:41:12.126Z',
    data: { email_id: 're-1', to: ['c@example.com'], bounce: { type: 'Permanent', message: 'Mailbox does not exist' } },
  };

  it('verifies the whsec_ signature and keys the event by svix-id', () => {
    const signed = signer.sign(bounced, { at: now });
    expect(source.parse(inbound(signed), keys, now)).toMatchObject({
      kind: 'events',
      events: [
        {
          key: signed.id,
          type: 'bounced',
          permanent: true,
          vendorMessageIds: ['re-1'],
          recipient: 'c@example.com',
          occurredAt: new Date('2024-11-22T23:41:12.126Z'),
        },
      ],
    });
  });

  it('accepts any matching signature of several (key rotation) and refuses none matching or stale', () => {
    const signed = signer.sign(bounced, { at: now });
    const rotated = { ...signed, headers: { ...signed.headers, 'svix-signature': `v1,bm90IGl0 ${signed.headers['svix-signature']}` } };
    expect(source.parse(inbound(rotated), keys, now).kind).toBe('events');
    expect(() => source.parse(inbound({ ...signed, headers: { ...signed.headers, 'svix-signature': 'v1,bm90IGl0' } }), keys, now)).toThrow(
      InvalidWebhookSignatureError,
    );
    expect(() => source.parse(inbound(signed), { credentials: {}, signingKey: new SvixSigner().secret }, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound(signer.sign(bounced, { at: new Date(now.getTime() + 6 * 60_000) })), keys, now)).toThrow(/5 minutes/);
  });
});
