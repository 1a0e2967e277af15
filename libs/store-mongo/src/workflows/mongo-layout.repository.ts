import { EnvironmentScope, Page } from '@app/kernel';
import { Layout, LayoutChanges, LayoutRepository, LayoutSearch } from '@app/workflows';
import { mongo } from 'mongoose';
import { containsIgnoringCase } from '../mongo-cursor-page';
import { Doc, DocumentMapper, updateOf } from '../mongo-documents';
import { insertUnlessDuplicate } from '../mongo-writes';
import { COLLECTIONS, MongoStore } from '../mongo-store';

export const layoutDocuments = new DocumentMapper<Layout>({
  fields: [
    'organizationId',
    'environmentId',
    'layoutId',
    'name',
    'isTranslationEnabled',
    'controlValues',
    'defaultSince',
    'creatorId',
    'createdAt',
    'updatedAt',
  ],
  json: ['controlValues'],
  defaults: { controlValues: () => null },
});

/** A change as update operators: given fields set, `controlValues: null` unset, updatedAt moved. */
export function layoutChange(changes: LayoutChanges, updatedAt: Date): Doc {
  const $set: Doc = { updatedAt };
  const $unset: Doc = {};
  if (changes.name !== undefined) $set.name = changes.name;
  if (changes.isTranslationEnabled !== undefined) $set.isTranslationEnabled = changes.isTranslationEnabled;
  if (changes.controlValues === null) $unset.controlValues = '';
  else if (changes.controlValues !== undefined) $set.controlValues = layoutDocuments.field('controlValues', changes.controlValues);
  return updateOf({ $set, $unset });
}

/** The filter of a layout search: of the environment, the query a case-insensitive substring of the name or the layoutId. */
export function layoutSearchFilter(scope: EnvironmentScope, query?: string): mongo.Filter<Doc> {
  const scoped = { environmentId: scope.environmentId, organizationId: scope.organizationId };
  if (!query) return scoped;
  const contains = containsIgnoringCase(query);
  return { ...scoped, $or: [{ name: contains }, { layoutId: contains }] };
}

/**
 * The marks older than (at, id) in the environment's order of default marks: what making (at, id) the
 * default clears. A later mark another writer set meanwhile stays, and stays the default.
 */
export function olderDefaultMarks(scope: EnvironmentScope, id: string, at: Date): mongo.Filter<Doc> {
  return {
    environmentId: scope.environmentId,
    organizationId: scope.organizationId,
    _id: { $ne: id },
    $or: [{ defaultSince: { $lt: at } }, { defaultSince: at, _id: { $lt: id } }],
  };
}

const DEFAULT_FIRST: mongo.Sort = { defaultSince: -1, _id: -1 };

/** LayoutRepository on MongoDB: one document per (environment, layoutId), held by a unique index. */
export class MongoLayoutRepository implements LayoutRepository {
  constructor(private readonly store: MongoStore) {}

  private get layouts() {
    return this.store.collection(COLLECTIONS.layouts);
  }

  insert(layout: Layout): Promise<boolean> {
    return insertUnlessDuplicate(() => this.layouts.insertOne(layoutDocuments.toDocument(layout)), 'layoutId');
  }

  async update(scope: EnvironmentScope, id: string, changes: LayoutChanges, updatedAt: Date): Promise<Layout | null> {
    const doc = await this.layouts.findOneAndUpdate(
      { _id: id, environmentId: scope.environmentId, organizationId: scope.organizationId },
      layoutChange(changes, updatedAt),
      { returnDocument: 'after' },
    );
    return doc ? layoutDocuments.toDomain(doc) : null;
  }

  async findByReference(scope: EnvironmentScope, idOrLayoutId: string): Promise<Layout | null> {
    const docs = await this.layouts
      .find({ environmentId: scope.environmentId, organizationId: scope.organizationId, $or: [{ _id: idOrLayoutId }, { layoutId: idOrLayoutId }] })
      .toArray();
    // the id wins when both match
    const doc = docs.find((d) => d._id === idOrLayoutId) ?? docs[0];
    return doc ? layoutDocuments.toDomain(doc) : null;
  }

  async findDefault(scope: EnvironmentScope): Promise<Layout | null> {
    const doc = await this.layouts.findOne(
      { environmentId: scope.environmentId, organizationId: scope.organizationId, defaultSince: { $exists: true } },
      { sort: DEFAULT_FIRST },
    );
    return doc ? layoutDocuments.toDomain(doc) : null;
  }

  async findForEmail(scope: EnvironmentScope, layoutId: string | undefined): Promise<Layout | null> {
    if (layoutId === undefined) return this.findDefault(scope);
    const doc = await this.layouts.findOne({ environmentId: scope.environmentId, organizationId: scope.organizationId, layoutId });
    return doc ? layoutDocuments.toDomain(doc) : null;
  }

  async search(scope: EnvironmentScope, search: LayoutSearch): Promise<Page<Layout>> {
    const filter = layoutSearchFilter(scope, search.query);
    const direction = search.orderDirection === 'asc' ? 1 : -1;
    const sort: mongo.Sort = { [search.orderBy ?? 'createdAt']: direction, _id: direction };
    const [docs, totalCount] = await Promise.all([
      this.layouts.find(filter, { sort, skip: search.offset, limit: search.limit }).toArray(),
      this.layouts.countDocuments(filter),
    ]);
    return { items: docs.map((doc) => layoutDocuments.toDomain(doc)), totalCount };
  }

  async markDefault(scope: EnvironmentScope, id: string | null, at: Date): Promise<boolean> {
    const scoped = { environmentId: scope.environmentId, organizationId: scope.organizationId };
    if (id === null) {
      await this.layouts.updateMany({ ...scoped, defaultSince: { $exists: true } }, { $unset: { defaultSince: '' } });
      return true;
    }
    const marked = await this.layouts.updateOne({ ...scoped, _id: id }, { $set: { defaultSince: at } });
    if (marked.matchedCount === 0) return false;
    await this.layouts.updateMany(olderDefaultMarks(scope, id, at), { $unset: { defaultSince: '' } });
    return true;
  }

  async delete(scope: EnvironmentScope, id: string): Promise<boolean> {
    const result = await this.layouts.deleteOne({ _id: id, environmentId: scope.environmentId, organizationId: scope.organizationId });
    return result.deletedCount === 1;
  }
}
