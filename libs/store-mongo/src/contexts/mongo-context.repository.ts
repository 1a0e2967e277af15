import { Context, ContextEntry, ContextRepository, ContextSearch, contextKey, parseContextKey } from '@app/contexts';
import { CursorPage, EnvironmentScope } from '@app/kernel';
import { CursorOrderField, allOf, containsIgnoringCase, cursorListPage } from '../mongo-cursor-page';
import { Doc, DocumentMapper } from '../mongo-documents';
import { insertUnlessDuplicate } from '../mongo-writes';
import { COLLECTIONS, MongoStore } from '../mongo-store';

export const contextDocuments = new DocumentMapper<Context>({
  fields: ['organizationId', 'environmentId', 'type', 'identifier', 'data', 'createdAt', 'updatedAt'],
  json: ['data'],
});

/** A context's document: its fields, and its key (`type:id`), which the list searches. */
export const contextDocument = (context: Context): Doc => ({ ...contextDocuments.toDocument(context), key: contextKey(context.type, context.identifier) });

/** A trigger's data for an existing context, as one pipeline update: set, and updatedAt moved only when it changes. */
export function contextRefresh(data: Record<string, unknown>, now: Date): Doc[] {
  const value = { $literal: contextDocuments.field('data', data) };
  return [{ $set: { data: value, updatedAt: { $cond: [{ $ne: ['$data', value] }, now, '$updatedAt'] } } }];
}

const ORDER_FIELDS: Record<ContextSearch['orderBy'], CursorOrderField> = { _id: '_id', createdAt: 'createdAt', updatedAt: 'updatedAt' };

/** ContextRepository on MongoDB: one document per (environment, type, identifier), held by a unique index. */
export class MongoContextRepository implements ContextRepository {
  constructor(private readonly store: MongoStore) {}

  private get contexts() {
    return this.store.collection(COLLECTIONS.contexts);
  }

  insert(context: Context): Promise<boolean> {
    return insertUnlessDuplicate(() => this.contexts.insertOne(contextDocument(context)), 'identifier');
  }

  async find(scope: EnvironmentScope, type: string, identifier: string): Promise<Context | null> {
    const doc = await this.contexts.findOne({ environmentId: scope.environmentId, type, identifier });
    return doc ? contextDocuments.toDomain(doc) : null;
  }

  async findByKeys(scope: EnvironmentScope, keys: string[]): Promise<Context[]> {
    const parsed = keys.map(parseContextKey).filter((key) => key !== undefined);
    if (!parsed.length) return [];
    const docs = await this.contexts.find({ environmentId: scope.environmentId, $or: parsed }).toArray();
    return docs.map((doc) => contextDocuments.toDomain(doc));
  }

  search(scope: EnvironmentScope, search: ContextSearch): Promise<CursorPage<Context>> {
    return cursorListPage(
      {
        collection: this.contexts,
        environmentId: scope.environmentId,
        filter: allOf(
          { environmentId: scope.environmentId },
          search.identifier !== undefined ? { identifier: search.identifier } : {},
          search.search ? { key: containsIgnoringCase(search.search) } : {},
        ),
        field: ORDER_FIELDS[search.orderBy],
        request: search,
      },
      (doc) => contextDocuments.toDomain(doc),
    );
  }

  async updateData(scope: EnvironmentScope, type: string, identifier: string, data: Record<string, unknown>, updatedAt: Date): Promise<Context | null> {
    const doc = await this.contexts.findOneAndUpdate(
      { environmentId: scope.environmentId, type, identifier },
      { $set: { data: contextDocuments.field('data', data), updatedAt } },
      { returnDocument: 'after' },
    );
    return doc ? contextDocuments.toDomain(doc) : null;
  }

  async delete(scope: EnvironmentScope, type: string, identifier: string): Promise<boolean> {
    return (await this.contexts.deleteOne({ environmentId: scope.environmentId, type, identifier })).deletedCount === 1;
  }

  upsert(scope: EnvironmentScope, entries: ContextEntry[], at: { newId: () => string; now: Date }): Promise<Context[]> {
    return Promise.all(entries.map((entry) => this.upsertOne(scope, entry, at.newId(), at.now)));
  }

  private async upsertOne(scope: EnvironmentScope, entry: ContextEntry, id: string, now: Date): Promise<Context> {
    const filter = { environmentId: scope.environmentId, type: entry.type, identifier: entry.identifier };
    const created: Context = { id, ...scope, type: entry.type, identifier: entry.identifier, data: entry.data ?? {}, createdAt: now, updatedAt: now };
    for (;;) {
      // The existing context (its data replaced when given), or else created; an insert that loses a race finds the winner's next round.
      const doc = entry.data
        ? await this.contexts.findOneAndUpdate(filter, contextRefresh(entry.data, now), { returnDocument: 'after' })
        : await this.contexts.findOne(filter);
      if (doc) return contextDocuments.toDomain(doc);
      if (await insertUnlessDuplicate(() => this.contexts.insertOne(contextDocument(created)), 'identifier')) return created;
    }
  }
}
