import { randomBytes } from 'node:crypto';
import { AesGcmCredentialCipher, Integration } from '@app/integrations';
import { IntegrationDocuments, activeIntegrationsFilter } from './mongo-integration.repository';

const at = new Date('2025-01-01T00:00:00.000Z');
const documents = new IntegrationDocuments(new AesGcmCredentialCipher(randomBytes(32)));
const integration: Integration = {
  id: 'i1',
  organizationId: 'o1',
  environmentId: 'e1',
  name: 'SendGrid',
  identifier: 'sendgrid',
  providerId: 'sendgrid',
  channel: 'email',
  credentials: { apiKey: 'SG.super-secret-key', from: 'no-reply@example.com' },
  configurations: { inboundWebhookEnabled: true },
  active: true,
  primary: true,
  priority: 2,
  conditions: [{ isNegated: false, type: 'BOOLEAN', value: 'AND', children: [{ field: 'identifier', value: 'acme', operator: 'EQUAL', on: 'tenant' }] }],
  fallbacks: ['ses'],
  deleted: false,
  createdAt: at,
  updatedAt: at,
};

describe('integration documents', () => {
  it('hold the credentials encrypted, never plain, and read them back decrypted', () => {
    const doc = documents.toDocument(integration);
    expect(typeof doc.credentials).toBe('string');
    expect(JSON.stringify(doc)).not.toContain('SG.super-secret-key');
    expect(JSON.stringify(doc)).not.toContain('no-reply@example.com');
    expect(documents.toDomain(doc)).toEqual(integration);
  });

  it('round-trip a deletion, and leave it absent on a live integration', () => {
    const deleted = { ...integration, deleted: true, deletedAt: at, deletedBy: 'u1' };
    expect(documents.toDomain(documents.toDocument(deleted))).toEqual(deleted);
    expect(documents.toDocument(integration)).not.toHaveProperty('deletedAt');
    expect(documents.toDomain({ ...documents.toDocument(integration), deletedAt: null, deletedBy: null })).toEqual(integration);
  });

  it('a replacement writes every field an update may change, and nothing of identity or deletion', () => {
    expect(Object.keys(documents.replacement(integration)).sort()).toEqual(
      [
        'active',
        'conditions',
        'configurations',
        'credentials',
        'fallbacks',
        'identifier',
        'maxConcurrency',
        'name',
        'primary',
        'priority',
        'rateLimit',
        'updatedAt',
      ].sort(),
    );
  });

  it('findActive filters live active integrations of the environment by what the query names', () => {
    const scope = { organizationId: 'o1', environmentId: 'e1' };
    expect(activeIntegrationsFilter(scope, {})).toEqual({ organizationId: 'o1', environmentId: 'e1', active: true, deleted: false });
    expect(activeIntegrationsFilter(scope, { channel: 'sms', providerId: 'twilio', identifier: 'tw' })).toEqual({
      organizationId: 'o1',
      environmentId: 'e1',
      active: true,
      deleted: false,
      channel: 'sms',
      providerId: 'twilio',
      identifier: 'tw',
    });
  });
});
