import { EnvironmentScope, PageRequest } from '@app/kernel';
import { Tenant, TenantChanges, TenantPage, TenantRepository, TenantUpdateResult } from '@app/tenants';
import { Doc, DocumentMapper, updateOf } from '../mongo-documents';
import { isDuplicateKey } from '../mongo-errors';
import { insertUnlessDuplicate } from '../mongo-writes';
import { COLLECTIONS, MongoStore } from '../mongo-store';

export const tenantDocuments = new DocumentMapper<Tenant>({
  fields: ['organizationId', 'environmentId', 'identifier', 'name', 'data', 'createdAt', 'updatedAt'],
  json: ['data'],
});

/** A change as update operators: given fields set, nulls unset, updatedAt moved. */
export function tenantChange(changes: TenantChanges, updatedAt: Date): Doc {
  const $set: Doc = { updatedAt };
  const $unset: Doc = {};
  if (changes.identifier != null) $set.identifier = changes.identifier;
  for (const field of ['name', 'data'] as const) {
    if (changes[field] === null) $unset[field] = '';
    else if (changes[field] !== undefined) $set[field] = tenantDocuments.field(field, changes[field]);
  }
  return updateOf({ $set, $unset });
}

/**
 * An upsert's change of an existing tenant, as one pipeline update: the given fields set (null
 * removes), and updatedAt moved only when one of them really changes, so repeated triggers leave it
 * alone. Values go in as $literal: a pipeline would read a string starting with `$` as a path.
 */
export function tenantRefresh(changes: Omit<TenantChanges, 'identifier'>, now: Date): Doc[] {
  const given = (['name', 'data'] as const).filter((field) => changes[field] !== undefined);
  const value = (field: 'name' | 'data') => (changes[field] === null ? '$$REMOVE' : { $literal: tenantDocuments.field(field, changes[field]) });
  const changed = given.map((field) => ({ $ne: [`$${field}`, value(field)] }));
  return [{ $set: { ...Object.fromEntries(given.map((field) => [field, value(field)])), updatedAt: { $cond: [{ $or: changed }, now, '$updatedAt'] } } }];
}

/** TenantRepository on MongoDB: one document per (environment, identifier), held by a unique index. */
export class MongoTenantRepository implements TenantRepository {
  constructor(private readonly store: MongoStore) {}

  private get tenants() {
    return this.store.collection(COLLECTIONS.tenants);
  }

  insert(tenant: Tenant): Promise<boolean> {
    return insertUnlessDuplicate(() => this.tenants.insertOne(tenantDocuments.toDocument(tenant)), 'identifier');
  }

  async findByIdentifier(scope: EnvironmentScope, identifier: string): Promise<Tenant | null> {
    const doc = await this.tenants.findOne({ environmentId: scope.environmentId, identifier });
    return doc ? tenantDocuments.toDomain(doc) : null;
  }

  async list(scope: EnvironmentScope, page: PageRequest): Promise<TenantPage> {
    // One document beyond the page tells whether another page exists, without a count.
    const docs = await this.tenants
      .find({ environmentId: scope.environmentId }, { sort: { createdAt: 1, _id: 1 }, skip: page.page * page.limit, limit: page.limit + 1 })
      .toArray();
    return { items: docs.slice(0, page.limit).map((doc) => tenantDocuments.toDomain(doc)), hasMore: docs.length > page.limit };
  }

  async update(scope: EnvironmentScope, identifier: string, changes: TenantChanges, updatedAt: Date): Promise<TenantUpdateResult> {
    try {
      const doc = await this.tenants.findOneAndUpdate({ environmentId: scope.environmentId, identifier }, tenantChange(changes, updatedAt), {
        returnDocument: 'after',
      });
      return doc ? { status: 'updated', tenant: tenantDocuments.toDomain(doc) } : { status: 'not_found' };
    } catch (error) {
      if (isDuplicateKey(error)) return { status: 'identifier_taken' };
      throw error;
    }
  }

  async upsert(
    scope: EnvironmentScope,
    identifier: string,
    changes: Omit<TenantChanges, 'identifier'>,
    at: { newId: string; now: Date },
  ): Promise<{ tenant: Tenant; created: boolean }> {
    const filter = { environmentId: scope.environmentId, identifier };
    const created = {
      id: at.newId,
      ...scope,
      identifier,
      name: changes.name ?? undefined,
      data: changes.data ?? undefined,
      createdAt: at.now,
      updatedAt: at.now,
    };
    for (;;) {
      // The existing tenant changed in one write, or else created; an insert that loses a race finds the winner's on the next round.
      const doc = await this.tenants.findOneAndUpdate(filter, tenantRefresh(changes, at.now), { returnDocument: 'after' });
      if (doc) return { tenant: tenantDocuments.toDomain(doc), created: false };
      if (await insertUnlessDuplicate(() => this.tenants.insertOne(tenantDocuments.toDocument(created)), 'identifier')) {
        return { tenant: tenantDocuments.toDomain(tenantDocuments.toDocument(created)), created: true };
      }
    }
  }

  async delete(scope: EnvironmentScope, identifier: string): Promise<boolean> {
    return (await this.tenants.deleteOne({ environmentId: scope.environmentId, identifier })).deletedCount === 1;
  }
}
