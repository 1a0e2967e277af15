import { InvalidWebhookSignatureError } from '@app/delivery';
import { TelnyxSigner, inbound } from '../../../../test/fakes/vendor-event-signers';
import { TelnyxEventSource } from './telnyx.events';

describe('TelnyxEventSource', () => {
  const signer = new TelnyxSigner();
  const source = new TelnyxEventSource();
  const keys = { credentials: {}, signingKey: signer.publicKey };
  const now = new Date();
  const finalized = {
    data: {
      id: 'ev-t1',
      event_type: 'message.finalized',
      occurred_at: '2024-11-22T10:00:00Z',
      payload: { id: 'tx-1', to: [{ phone_number: '+15555550101', status: 'delivered' }] },
    },
  };

  it('verifies the Ed25519 signature and reads the final status', () => {
    expect(source.parse(inbound(signer.sign(finalized, now)), keys, now)).toMatchObject({
      events: [{ key: 'ev-t1', type: 'delivered', vendorMessageIds: ['tx-1'], recipient: '+15555550101' }],
    });
  });

  it('refuses a changed body, another key and a stale timestamp', () => {
    const signed = signer.sign(finalized, now);
    expect(() => source.parse(inbound({ ...signed, body: signed.body.replace('delivered', 'delivery_failed') }), keys, now)).toThrow(
      InvalidWebhookSignatureError,
    );
    expect(() => source.parse(inbound(signed), { credentials: {}, signingKey: new TelnyxSigner().publicKey }, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound(signer.sign(finalized, new Date(now.getTime() - 6 * 60_000))), keys, now)).toThrow(/5 minutes/);
  });
});
