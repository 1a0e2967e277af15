import { Layout } from '@app/workflows';
import { layoutChange, layoutDocuments, layoutSearchFilter, olderDefaultMarks } from './mongo-layout.repository';

const at = new Date('2025-01-01T00:00:00.000Z');
const layout: Layout = {
  id: 'l1',
  organizationId: 'o1',
  environmentId: 'e1',
  layoutId: 'brand',
  name: 'Brand',
  isTranslationEnabled: false,
  controlValues: { email: { body: '<html><body>{{ content }}</body></html>', editorType: 'html' } },
  defaultSince: at,
  creatorId: 'k1',
  createdAt: at,
  updatedAt: at,
};

describe('layout documents', () => {
  it('round-trip with every field, the controls through the JSON codec', () => {
    const doc = layoutDocuments.toDocument(layout);
    expect(doc).toMatchObject({ _id: 'l1', layoutId: 'brand', defaultSince: at });
    expect(layoutDocuments.toDomain(doc)).toEqual(layout);
  });

  it('leave null controls and an unset mark out, and read them back as null and absent', () => {
    const { defaultSince: _mark, ...bare } = { ...layout, controlValues: null };
    const doc = layoutDocuments.toDocument(bare);
    expect(doc).not.toHaveProperty('controlValues');
    expect(doc).not.toHaveProperty('defaultSince');
    const read = layoutDocuments.toDomain(doc);
    expect(read).toEqual(bare);
    expect(read).not.toHaveProperty('defaultSince');
  });
});

describe('layout writes and filters', () => {
  it('set the given fields, unset cleared controls, move updatedAt', () => {
    expect(layoutChange({ name: 'New' }, at)).toEqual({ $set: { name: 'New', updatedAt: at } });
    expect(layoutChange({ controlValues: null, isTranslationEnabled: true }, at)).toEqual({
      $set: { isTranslationEnabled: true, updatedAt: at },
      $unset: { controlValues: '' },
    });
    expect(layoutChange({ controlValues: layout.controlValues }, at).$set.controlValues).toEqual(layoutDocuments.toDocument(layout).controlValues);
  });

  it('search one environment, the query a literal case-insensitive substring of the name or layoutId', () => {
    const scope = { organizationId: 'o1', environmentId: 'e1' };
    expect(layoutSearchFilter(scope)).toEqual({ environmentId: 'e1', organizationId: 'o1' });
    expect(layoutSearchFilter(scope, 'a.b')).toEqual({
      environmentId: 'e1',
      organizationId: 'o1',
      $or: [{ name: { $regex: 'a\\.b', $options: 'i' } }, { layoutId: { $regex: 'a\\.b', $options: 'i' } }],
    });
  });

  it('clear only the default marks older than the new one, in (time, id) order', () => {
    expect(olderDefaultMarks({ organizationId: 'o1', environmentId: 'e1' }, 'l2', at)).toEqual({
      environmentId: 'e1',
      organizationId: 'o1',
      _id: { $ne: 'l2' },
      $or: [{ defaultSince: { $lt: at } }, { defaultSince: at, _id: { $lt: 'l2' } }],
    });
  });
});
