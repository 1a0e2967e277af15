import { InvalidWebhookSignatureError } from '@app/delivery';
import { VonageSigner, hs256Jwt, inbound } from '../../../../test/fakes/vendor-event-signers';
import { VonageEventSource } from './vonage.events';

describe('VonageEventSource', () => {
  const signer = new VonageSigner();
  const source = new VonageEventSource();
  const keys = { credentials: {}, signingKey: signer.signatureSecret };
  const now = new Date();
  const receipt = {
    msisdn: '447700900000',
    to: 'ACME',
    'network-code': '23410',
    messageId: '0A0000000123ABCD1',
    price: '0.03330000',
    status: 'failed',
    scts: '2001011400',
    'err-code': '3',
    'client-ref': 'our-message-id',
    'message-timestamp': '2020-01-01 12:00:00',
  };
  const expected = {
    kind: 'events',
    events: [
      {
        key: '0A0000000123ABCD1:failed',
        type: 'undelivered',
        permanent: true,
        vendorMessageIds: ['0A0000000123ABCD1'],
        messageId: 'our-message-id',
        recipient: '447700900000',
        reason: 'Vonage error 3',
        occurredAt: new Date('2020-01-01T12:00:00Z'),
      },
    ],
  };

  it('verifies a JWT in Authorization (HS256, payload_hash of the JSON body)', () => {
    expect(source.parse(inbound(signer.signJwt(receipt)), keys, now)).toMatchObject(expected);
  });

  it('verifies the sig parameter of a form receipt, HMAC or MD5 hash, with its timestamp', () => {
    expect(source.parse(inbound(signer.signSig(receipt)), keys, now)).toMatchObject(expected);
    expect(source.parse(inbound(signer.signSig(receipt, { method: 'md5hash' })), keys, now)).toMatchObject(expected);
  });

  it('reads delivered, ignores what is not final', () => {
    expect(source.parse(inbound(signer.signJwt({ ...receipt, status: 'delivered', 'err-code': '0' })), keys, now)).toMatchObject({
      events: [{ type: 'delivered', permanent: false }],
    });
    expect(source.parse(inbound(signer.signJwt({ ...receipt, status: 'buffered' })), keys, now)).toEqual({ kind: 'events', events: [] });
  });

  it('refuses a changed body, another secret, an unsigned receipt, a stale token and a token that hashes no body', () => {
    const signed = signer.signJwt(receipt);
    expect(() => source.parse(inbound({ ...signed, body: signed.body.replace('failed', 'delivered') }), keys, now)).toThrow(/payload_hash/);
    expect(() => source.parse(inbound(signed), { credentials: {}, signingKey: 'other' }, now)).toThrow(InvalidWebhookSignatureError);
    const form = signer.signSig(receipt);
    expect(() => source.parse(inbound({ ...form, body: form.body.replace('status=failed', 'status=delivered') }), keys, now)).toThrow(/sig parameter/);
    expect(() => source.parse(inbound({ body: new URLSearchParams(receipt).toString(), headers: {} }), keys, now)).toThrow(/not signed/);
    expect(() => source.parse(inbound(signer.signJwt(receipt, new Date(now.getTime() - 10 * 60_000))), keys, now)).toThrow(/5 minutes/);
    expect(() => source.parse(inbound(signer.signSig(receipt, { at: new Date(now.getTime() - 10 * 60_000) })), keys, now)).toThrow(/5 minutes/);
    const noHash = hs256Jwt({ iat: Math.floor(now.getTime() / 1000) }, signer.signatureSecret);
    const query = `https://api.example.com/hook?${new URLSearchParams(receipt).toString()}`;
    expect(() => source.parse(inbound({ body: '', headers: { authorization: `Bearer ${noHash}` } }, query), keys, now)).toThrow(/payload_hash/);
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{}').toString('base64url')}.`;
    expect(() => source.parse(inbound({ body: JSON.stringify(receipt), headers: { authorization: `Bearer ${none}` } }), keys, now)).toThrow(/HS256/);
  });
});
