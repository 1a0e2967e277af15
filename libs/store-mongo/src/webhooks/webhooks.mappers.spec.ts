import { randomBytes } from 'node:crypto';
import { AesGcmCredentialCipher } from '@app/integrations';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '@app/webhooks';
import { attemptOutcome, webhookAttemptDocuments, webhookDeliveryDocuments } from './mongo-webhook-delivery.repository';
import { WebhookEndpointDocuments } from './mongo-webhook-endpoint.repository';

const at = new Date('2025-01-01T00:00:00.000Z');
const later = new Date('2025-01-02T00:00:00.000Z');
const scope = { organizationId: 'o1', environmentId: 'e1' };
const endpoints = new WebhookEndpointDocuments(new AesGcmCredentialCipher(randomBytes(32)));

describe('webhook endpoint documents', () => {
  const bare: WebhookEndpoint = {
    id: 'w1',
    ...scope,
    kind: 'endpoint',
    url: 'https://hook',
    disabled: false,
    secrets: [{ secret: 'whsec_abc' }],
    createdAt: at,
    updatedAt: at,
  };

  it('hold the signing secrets encrypted and read them back, expiry included', () => {
    const full: WebhookEndpoint = {
      ...bare,
      description: 'd',
      eventTypes: ['message.sent'] as never,
      disabledReason: 'failing',
      secrets: [{ secret: 'whsec_new' }, { secret: 'whsec_abc', expiresAt: later }],
    };
    const doc = endpoints.toDocument(full);
    expect(JSON.stringify(doc)).not.toContain('whsec_');
    expect(endpoints.toDomain(doc)).toEqual(full);
    expect(endpoints.toDocument(bare)).not.toHaveProperty('description');
    expect(endpoints.toDomain({ ...endpoints.toDocument(bare), description: null, eventTypes: null, disabledReason: null })).toEqual(bare);
  });

  it('changes set what is given, unset what is null, reseal new secrets', () => {
    const update = endpoints.changes({ url: 'https://new', description: null, eventTypes: null, disabled: true, secrets: [{ secret: 'whsec_x' }] }, later);
    expect(update.$set).toMatchObject({ updatedAt: later, url: 'https://new', disabled: true });
    expect(typeof update.$set.secrets).toBe('string');
    expect(update.$unset).toEqual({ description: '', eventTypes: '' });
    expect(endpoints.changes({}, later)).toEqual({ $set: { updatedAt: later } });
  });
});

describe('webhook delivery and attempt documents', () => {
  it('deliveries round-trip, url and next attempt only when set', () => {
    const bare: WebhookDelivery = {
      id: 'd1',
      ...scope,
      endpointId: 'w1',
      eventType: 'message.sent',
      body: '{}',
      status: 'pending',
      attempts: 0,
      createdAt: at,
      updatedAt: at,
    };
    const full = { ...bare, url: 'https://hook', nextAttemptAt: later };
    expect(webhookDeliveryDocuments.toDomain(webhookDeliveryDocuments.toDocument(full))).toEqual(full);
    expect(webhookDeliveryDocuments.toDomain({ ...webhookDeliveryDocuments.toDocument(bare), url: null, nextAttemptAt: null })).toEqual(bare);
  });

  it('attempts round-trip, their optional outcome fields only when set', () => {
    const bare: WebhookAttempt = {
      id: 'a1',
      ...scope,
      endpointId: 'w1',
      deliveryId: 'd1',
      eventType: 'message.sent',
      attempt: 1,
      success: false,
      createdAt: at,
    };
    const full = { ...bare, statusCode: 500, latencyMs: 12, error: 'boom', responseExcerpt: 'oops' };
    expect(webhookAttemptDocuments.toDomain(webhookAttemptDocuments.toDocument(full))).toEqual(full);
    expect(webhookAttemptDocuments.toDocument(bare)).not.toHaveProperty('statusCode');
    expect(webhookAttemptDocuments.toDomain(webhookAttemptDocuments.toDocument(bare))).toEqual(bare);
  });

  it('an attempt outcome applies only after the previous attempt, to a pending delivery', () => {
    expect(attemptOutcome('d1', 2, { status: 'pending', nextAttemptAt: later }, at)).toEqual({
      filter: { _id: 'd1', attempts: 1, status: 'pending' },
      update: { $set: { attempts: 2, status: 'pending', updatedAt: at, nextAttemptAt: later } },
    });
    expect(attemptOutcome('d1', 1, { status: 'delivered' }, at).update).toEqual({
      $set: { attempts: 1, status: 'delivered', updatedAt: at },
      $unset: { nextAttemptAt: '' },
    });
  });
});
