import { InvalidWebhookSignatureError } from '@app/delivery';
import { MessageBirdSigner, hs256Jwt, inbound } from '../../../../test/fakes/vendor-event-signers';
import { MessageBirdEventSource } from './messagebird.events';

describe('MessageBirdEventSource', () => {
  const signer = new MessageBirdSigner();
  const source = new MessageBirdEventSource();
  const keys = { credentials: {}, signingKey: signer.signingKey };
  const url = 'https://api.example.com/v2/inbound-webhooks/delivery-providers/e/i';
  const now = new Date();
  const report = {
    id: 'e8077d803532c0b5937c639b60216938',
    reference: 'our-message-id',
    recipient: '31612345678',
    status: 'delivery_failed',
    statusReason: 'unknown subscriber',
    statusErrorCode: '1',
    statusDatetime: '2024-11-22T10:00:00+00:00',
  };
  const expected = {
    kind: 'events',
    events: [
      {
        key: 'e8077d803532c0b5937c639b60216938:delivery_failed',
        type: 'undelivered',
        permanent: true,
        messageId: 'our-message-id',
        vendorMessageIds: ['e8077d803532c0b5937c639b60216938'],
        recipient: '31612345678',
        reason: 'unknown subscriber, error 1',
        occurredAt: new Date('2024-11-22T10:00:00Z'),
      },
    ],
  };

  it('verifies the JWT of a GET report (url_hash over the URL with its query) and of a POST one (payload_hash)', () => {
    expect(source.parse(inbound(signer.sign(url, report), url), keys, now)).toMatchObject(expected);
    expect(source.parse(inbound(signer.sign(url, report, { post: true }), url), keys, now)).toMatchObject(expected);
    expect(source.parse(inbound(signer.sign(url, { ...report, status: 'sent' }), url), keys, now)).toEqual({ kind: 'events', events: [] });
  });

  it('refuses a changed query, another URL, a body the token does not hash, another key, a stale token and a foreign issuer', () => {
    const signed = signer.sign(url, report);
    expect(() => source.parse(inbound({ ...signed, query: signed.query!.replace('delivery_failed', 'delivered') }, url), keys, now)).toThrow(/url_hash/);
    expect(() => source.parse(inbound(signed, 'https://elsewhere.example.com/hook'), keys, now)).toThrow(/url_hash/);
    expect(() => source.parse(inbound({ ...signed, body: 'status=delivered' }, url), keys, now)).toThrow(/payload_hash/);
    const posted = signer.sign(url, report, { post: true });
    expect(() => source.parse(inbound({ ...posted, body: posted.body.replace('delivery_failed', 'delivered') }, url), keys, now)).toThrow(/payload_hash/);
    expect(() => source.parse(inbound(signed, url), { credentials: {}, signingKey: 'other' }, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound(signer.sign(url, report, { at: new Date(now.getTime() - 10 * 60_000) }), url), keys, now)).toThrow(
      InvalidWebhookSignatureError,
    );
    expect(() => source.parse(inbound({ body: '', headers: {}, query: signed.query }, url), keys, now)).toThrow(/header is required/);
    const foreign = hs256Jwt({ iss: 'Someone', iat: Math.floor(now.getTime() / 1000), jti: 'j' }, signer.signingKey);
    expect(() => source.parse(inbound({ body: '', headers: { 'messagebird-signature-jwt': foreign }, query: signed.query }, url), keys, now)).toThrow(/issuer/);
  });
});
