import { Context } from '@app/contexts';
import { contextDocument, contextDocuments, contextRefresh } from './mongo-context.repository';

const at = new Date('2025-01-01T00:00:00.000Z');

describe('context documents', () => {
  const context: Context = {
    id: 'c1',
    organizationId: 'o1',
    environmentId: 'e1',
    type: 'tenant',
    identifier: 'acme',
    data: { 'a.b': { $c: [1] } },
    createdAt: at,
    updatedAt: at,
  };

  it('round-trip, the data as caller JSON, with the key the list searches', () => {
    const doc = contextDocument(context);
    expect(doc).toEqual({
      _id: 'c1',
      organizationId: 'o1',
      environmentId: 'e1',
      type: 'tenant',
      identifier: 'acme',
      key: 'tenant:acme',
      data: { 'a%2Eb': { '%24c': [1] } },
      createdAt: at,
      updatedAt: at,
    });
    expect(contextDocuments.toDomain(doc)).toEqual(context);
  });

  it("a trigger's data: set as a literal, updatedAt moved only when it changes", () => {
    const later = new Date('2025-02-01T00:00:00.000Z');
    const value = { $literal: { '%24x': 1 } };
    expect(contextRefresh({ $x: 1 }, later)).toEqual([{ $set: { data: value, updatedAt: { $cond: [{ $ne: ['$data', value] }, later, '$updatedAt'] } } }]);
  });
});
