import { Tenant } from '@app/tenants';
import { tenantChange, tenantDocuments, tenantRefresh } from './mongo-tenant.repository';

const at = new Date('2025-01-01T00:00:00.000Z');

describe('tenant documents', () => {
  it('round-trip name and data (caller JSON), or leave them absent', () => {
    const tenant: Tenant = {
      id: 't1',
      organizationId: 'o1',
      environmentId: 'e1',
      identifier: 'acme',
      name: 'Acme',
      data: { 'a.b': { $c: [1] } },
      createdAt: at,
      updatedAt: at,
    };
    expect(tenantDocuments.toDocument(tenant).data).toEqual({ 'a%2Eb': { '%24c': [1] } });
    expect(tenantDocuments.toDomain(tenantDocuments.toDocument(tenant))).toEqual(tenant);
    const { name: _n, data: _d, ...bare } = tenant;
    expect(tenantDocuments.toDocument(bare)).toEqual({
      _id: 't1',
      organizationId: 'o1',
      environmentId: 'e1',
      identifier: 'acme',
      createdAt: at,
      updatedAt: at,
    });
    expect(tenantDocuments.toDomain({ ...tenantDocuments.toDocument(bare), name: null, data: null })).toEqual(bare);
  });
});

describe('tenant writes', () => {
  it('an update sets what is given, unsets what is null, and moves updatedAt', () => {
    expect(tenantChange({ identifier: 'uno', name: null, data: { b: 2 } }, at)).toEqual({
      $set: { updatedAt: at, identifier: 'uno', data: { b: 2 } },
      $unset: { name: '' },
    });
    expect(tenantChange({}, at)).toEqual({ $set: { updatedAt: at } });
  });

  it("an upsert's refresh compares each given field with what is stored and moves updatedAt only on a change", () => {
    expect(tenantRefresh({ name: 'Up', data: null }, at)).toEqual([
      {
        $set: {
          name: { $literal: 'Up' },
          data: '$$REMOVE',
          updatedAt: { $cond: [{ $or: [{ $ne: ['$name', { $literal: 'Up' }] }, { $ne: ['$data', '$$REMOVE'] }] }, at, '$updatedAt'] },
        },
      },
    ]);
    // values that look like paths stay values
    expect(tenantRefresh({ name: '$identifier' }, at)[0].$set.name).toEqual({ $literal: '$identifier' });
    expect(tenantRefresh({}, at)).toEqual([{ $set: { updatedAt: { $cond: [{ $or: [] }, at, '$updatedAt'] } } }]);
  });
});
