import { Webhook as StandardWebhook } from 'standardwebhooks';
import { newSigningSecret, signatureHeader, signedHeaders } from './standard-webhooks';
import { ROTATED_SECRET_GRACE_MS, WebhookEndpoint, activeSecrets, rotateSecrets, takesEvent } from './webhook-endpoint';

describe('Standard Webhooks signing', () => {
  it('signs so that the standardwebhooks library verifies, under webhook-* and svix-* names', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const body = JSON.stringify({ type: 'message.sent', timestamp: new Date().toISOString(), data: { object: { _id: 'm1' } } });
    const headers = signedHeaders([secret], 'msg_1', Math.floor(Date.now() / 1000), body);
    expect(new StandardWebhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect([headers['svix-id'], headers['svix-timestamp'], headers['svix-signature']]).toEqual([
      headers['webhook-id'],
      headers['webhook-timestamp'],
      headers['webhook-signature'],
    ]);
    expect(() => new StandardWebhook(newSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new StandardWebhook(secret).verify(body.replace('m1', 'm2'), headers)).toThrow();
  });

  it('puts one v1 signature per secret, space-separated, each verifying on its own', () => {
    const [a, b] = [newSigningSecret(), newSigningSecret()];
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeader([a, b], 'msg_2', now, '{}');
    expect(header.split(' ')).toEqual([signatureHeader([a], 'msg_2', now, '{}'), signatureHeader([b], 'msg_2', now, '{}')]);
    const headers = signedHeaders([a, b], 'msg_2', now, '{}');
    expect(new StandardWebhook(a).verify('{}', headers)).toEqual({});
    expect(new StandardWebhook(b).verify('{}', headers)).toEqual({});
  });
});

describe('webhook endpoints', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');
  const endpoint = (extra: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
    id: 'e1',
    organizationId: 'o',
    environmentId: 'env',
    kind: 'endpoint',
    url: 'https://example.com',
    disabled: false,
    secrets: [{ secret: 'whsec_a' }],
    createdAt: now,
    updatedAt: now,
    ...extra,
  });

  it('rotation: the new secret first, the old one expiring after 24 h, expired ones dropped', () => {
    const once = rotateSecrets([{ secret: 'whsec_a' }], 'whsec_b', now);
    expect(once).toEqual([{ secret: 'whsec_b' }, { secret: 'whsec_a', expiresAt: new Date(now.getTime() + ROTATED_SECRET_GRACE_MS) }]);
    expect(activeSecrets({ secrets: once }, now)).toEqual(['whsec_b', 'whsec_a']);
    const dayLater = new Date(now.getTime() + ROTATED_SECRET_GRACE_MS);
    expect(activeSecrets({ secrets: once }, dayLater)).toEqual(['whsec_b']);
    expect(rotateSecrets(once, 'whsec_c', dayLater)).toEqual([
      { secret: 'whsec_c' },
      { secret: 'whsec_b', expiresAt: new Date(dayLater.getTime() + ROTATED_SECRET_GRACE_MS) },
    ]);
  });

  it('takes the types it asked for (all when none), never when disabled or a reply-callback signer', () => {
    expect(takesEvent(endpoint(), 'workflow.created')).toBe(true);
    expect(takesEvent(endpoint({ eventTypes: ['message.sent'] }), 'message.sent')).toBe(true);
    expect(takesEvent(endpoint({ eventTypes: ['message.sent'] }), 'message.failed')).toBe(false);
    expect(takesEvent(endpoint({ disabled: true }), 'message.sent')).toBe(false);
    expect(takesEvent(endpoint({ kind: 'reply_callback' }), 'message.sent')).toBe(false);
  });
});
