import { createHmac, randomBytes } from 'node:crypto';
import { InvalidWebhookSignatureError } from '@app/delivery';
import { PlivoSigner, inbound } from '../../../../test/fakes/vendor-event-signers';
import { PlivoEventSource, plivoSignatureV3 } from './plivo.events';

describe('PlivoEventSource', () => {
  const token = randomBytes(16).toString('hex');
  const signer = new PlivoSigner(token);
  const source = new PlivoEventSource();
  const url = 'https://api.example.com/v2/inbound-webhooks/delivery-providers/e/i';
  const now = new Date();
  const params = { MessageUUID: 'db3ce55a-7f1d-11e1-8ea7-1231380bc196', Status: 'undelivered', To: '14155550100', From: '14155550199', ErrorCode: '50' };

  it('signs the URL, its sorted query, the sorted form parameters and the nonce', () => {
    const text = 'https://api.example.com/hook?a=1&b=2&b=3.StatusdeliveredTo1.nonce-1';
    const body = new URLSearchParams({ To: '1', Status: 'delivered' });
    expect(plivoSignatureV3(token, 'https://api.example.com/hook?b=3&a=1&b=2', body, 'nonce-1')).toBe(
      createHmac('sha256', token).update(text).digest('base64'),
    );
    expect(plivoSignatureV3(token, 'https://api.example.com/hook', body, 'n')).toBe(
      createHmac('sha256', token).update('https://api.example.com/hook?StatusdeliveredTo1.n').digest('base64'),
    );
  });

  it('verifies X-Plivo-Signature-V3 with the auth token credential (any of several signatures) and reads a final status', () => {
    const signed = signer.sign(url, params);
    expect(source.parse(inbound(signed, url), { credentials: { token } }, now)).toMatchObject({
      events: [
        { key: `${params.MessageUUID}:undelivered`, type: 'undelivered', permanent: true, vendorMessageIds: [params.MessageUUID], recipient: '14155550100' },
      ],
    });
    const several = { ...signed, headers: { ...signed.headers, 'x-plivo-signature-v3': `other=,${signed.headers['x-plivo-signature-v3']}` } };
    expect(source.parse(inbound(several, url), { credentials: { token } }, now)).toMatchObject({ events: [{ type: 'undelivered' }] });
    expect(source.parse(inbound(signer.sign(url, { ...params, Status: 'failed', ErrorCode: '200' }), url), { credentials: { token } }, now)).toMatchObject({
      events: [{ type: 'unsubscribed' }],
    });
    expect(source.parse(inbound(signer.sign(url, { ...params, Status: 'sent' }), url), { credentials: { token } }, now)).toEqual({
      kind: 'events',
      events: [],
    });
  });

  it('refuses another URL, another token, a changed parameter, another nonce and missing headers', () => {
    const signed = signer.sign(url, params);
    const keys = { credentials: { token } };
    expect(() => source.parse(inbound(signed, `${url}?x=1`), keys, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound(signed, url), { credentials: { token: 'other' } }, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound({ ...signed, body: signed.body.replace('undelivered', 'delivered') }, url), keys, now)).toThrow(
      InvalidWebhookSignatureError,
    );
    const nonce = { ...signed, headers: { ...signed.headers, 'x-plivo-signature-v3-nonce': '1' } };
    expect(() => source.parse(inbound(nonce, url), keys, now)).toThrow(InvalidWebhookSignatureError);
    expect(() => source.parse(inbound({ body: signed.body, headers: {} }, url), keys, now)).toThrow(/headers are required/);
  });
});
