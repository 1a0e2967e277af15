import { ApiKey, Environment, Organization } from '@app/environments';
import { apiKeyDocuments, environmentDocuments, organizationDocuments } from './mongo-environment.repository';
import { idempotencyClaim, toIdempotencyRecord } from './mongo-idempotency.store';

const at = new Date('2025-01-01T00:00:00.000Z');

describe('environment documents', () => {
  it('organizations and environments round-trip, keyed by their ids', () => {
    const organization: Organization = { id: 'o1', name: 'Org', createdAt: at };
    expect(organizationDocuments.toDocument(organization)).toEqual({ _id: 'o1', name: 'Org', createdAt: at });
    expect(organizationDocuments.toDomain(organizationDocuments.toDocument(organization))).toEqual(organization);
    const environment: Environment = { id: 'e1', organizationId: 'o1', name: 'Development', identifier: 'abc', inboxHmac: false, createdAt: at };
    expect(environmentDocuments.toDocument(environment)).toEqual({
      _id: 'e1',
      organizationId: 'o1',
      name: 'Development',
      identifier: 'abc',
      inboxHmac: false,
      createdAt: at,
    });
    expect(environmentDocuments.toDomain(environmentDocuments.toDocument(environment))).toEqual(environment);
  });

  it('API keys keep the sealed secret when there is one, and read back without it otherwise', () => {
    const key: ApiKey = { id: 'k1', organizationId: 'o1', environmentId: 'e1', hash: 'h', hint: 'abcd', sealedSecret: 'sealed', createdAt: at };
    expect(apiKeyDocuments.toDomain(apiKeyDocuments.toDocument(key))).toEqual(key);
    const { sealedSecret: _s, ...plain } = key;
    expect(apiKeyDocuments.toDocument(plain)).not.toHaveProperty('sealedSecret');
    expect(apiKeyDocuments.toDomain({ ...apiKeyDocuments.toDocument(plain), sealedSecret: null })).toEqual(plain);
  });
});

describe('idempotency documents', () => {
  it('claims a key that is absent or expired, for ttl seconds, clearing an old response', () => {
    expect(idempotencyClaim('key', 'hash', 60, at)).toEqual({
      filter: { _id: 'key', expiresAt: { $lt: at } },
      update: { $set: { bodyHash: 'hash', expiresAt: new Date('2025-01-01T00:01:00.000Z') }, $unset: { statusCode: '', body: '' } },
    });
  });

  it('reads a claim in progress and a finished one with its response (the body as caller JSON)', () => {
    expect(toIdempotencyRecord({ _id: 'key', bodyHash: 'h', expiresAt: at })).toEqual({ state: 'in_progress', bodyHash: 'h' });
    expect(toIdempotencyRecord({ _id: 'key', bodyHash: 'h', statusCode: 201, body: { data: { 'a%2Eb': 1 } } })).toEqual({
      state: 'done',
      bodyHash: 'h',
      response: { statusCode: 201, body: { data: { 'a.b': 1 } } },
    });
    expect(toIdempotencyRecord({ _id: 'key', bodyHash: 'h', statusCode: 204, body: null })).toMatchObject({ response: { statusCode: 204, body: null } });
  });
});
