import { ApiKey, Environment, EnvironmentChanges, EnvironmentRepository, Organization } from '@app/environments';
import { StoreRejectedError } from '@app/kernel';
import { DocumentMapper } from '../mongo-documents';
import { isDuplicateKey } from '../mongo-errors';
import { insertUnlessDuplicate } from '../mongo-writes';
import { COLLECTIONS, CollectionName, MongoStore } from '../mongo-store';

export const organizationDocuments = new DocumentMapper<Organization>({ fields: ['name', 'createdAt'] });
export const environmentDocuments = new DocumentMapper<Environment>({
  fields: ['organizationId', 'name', 'identifier', 'inboxHmac', 'color', 'parentId', 'createdAt'],
});
export const apiKeyDocuments = new DocumentMapper<ApiKey>({ fields: ['organizationId', 'environmentId', 'hash', 'hint', 'sealedSecret', 'createdAt'] });

/** Organizations, environments and API keys; the unique indexes hold environment names per organization, identifiers and key hashes. */
export class MongoEnvironmentRepository implements EnvironmentRepository {
  constructor(private readonly store: MongoStore) {}

  async claimBootstrap(): Promise<boolean> {
    return insertUnlessDuplicate(() => this.store.collection(COLLECTIONS.systemClaims).insertOne({ _id: 'bootstrap', claimedAt: new Date() }));
  }

  async insertOrganization(organization: Organization): Promise<void> {
    await this.store.collection(COLLECTIONS.organizations).insertOne(organizationDocuments.toDocument(organization));
  }

  async listOrganizations(): Promise<Organization[]> {
    const docs = await this.store
      .collection(COLLECTIONS.organizations)
      .find({}, { sort: { _id: 1 } })
      .toArray();
    return docs.map((doc) => organizationDocuments.toDomain(doc));
  }

  async insertEnvironment(environment: Environment): Promise<boolean> {
    await this.requireParent(COLLECTIONS.organizations, environment.organizationId, 'environments');
    // Only the (organization, name) index means "exists already"; a clash of id or identifier is a refusal, as in SQL.
    return insertUnlessDuplicate(() => this.environments.insertOne(environmentDocuments.toDocument(environment)), 'name');
  }

  async findEnvironment(id: string): Promise<Environment | null> {
    return this.findOne({ _id: id });
  }

  async findEnvironmentByName(organizationId: string, name: string): Promise<Environment | null> {
    return this.findOne({ organizationId, name });
  }

  async findEnvironmentByIdentifier(identifier: string): Promise<Environment | null> {
    return this.findOne({ identifier });
  }

  async setInboxHmac(id: string, required: boolean): Promise<boolean> {
    return (await this.environments.updateOne({ _id: id }, { $set: { inboxHmac: required } })).matchedCount === 1;
  }

  async listEnvironments(organizationId?: string): Promise<Environment[]> {
    const docs = await this.environments.find(organizationId ? { organizationId } : {}, { sort: { _id: 1 } }).toArray();
    return docs.map((doc) => environmentDocuments.toDomain(doc));
  }

  async updateEnvironment(id: string, changes: EnvironmentChanges): Promise<'updated' | 'not_found' | 'name_taken'> {
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    try {
      return (await this.environments.updateOne({ _id: id }, { $set: set })).matchedCount === 1 ? 'updated' : 'not_found';
    } catch (error) {
      if (isDuplicateKey(error)) return 'name_taken';
      throw error;
    }
  }

  async deleteEnvironment(id: string): Promise<boolean> {
    return (await this.environments.deleteOne({ _id: id })).deletedCount === 1;
  }

  async insertApiKey(key: ApiKey): Promise<boolean> {
    await this.requireParent(COLLECTIONS.environments, key.environmentId, 'api_keys');
    return insertUnlessDuplicate(() => this.apiKeys.insertOne(apiKeyDocuments.toDocument(key)), 'hash');
  }

  async findApiKeyByHash(hash: string): Promise<ApiKey | null> {
    const doc = await this.apiKeys.findOne({ hash });
    return doc ? apiKeyDocuments.toDomain(doc) : null;
  }

  async listApiKeys(environmentId: string): Promise<ApiKey[]> {
    const docs = await this.apiKeys.find({ environmentId }, { sort: { _id: 1 } }).toArray();
    return docs.map((doc) => apiKeyDocuments.toDomain(doc));
  }

  async deleteApiKeys(environmentId: string): Promise<number> {
    return (await this.apiKeys.deleteMany({ environmentId })).deletedCount;
  }

  private get environments() {
    return this.store.collection(COLLECTIONS.environments);
  }

  private get apiKeys() {
    return this.store.collection(COLLECTIONS.apiKeys);
  }

  /** SQL's foreign keys: a row naming a parent that does not exist is refused, not stored. */
  private async requireParent(collection: CollectionName, id: string, child: string): Promise<void> {
    if (!(await this.store.collection(collection).findOne({ _id: id }, { projection: { _id: 1 } }))) {
      throw new StoreRejectedError(`mongo store: ${child} names ${collection} ${id}, which does not exist`, 'foreign_key');
    }
  }

  private async findOne(filter: Record<string, unknown>): Promise<Environment | null> {
    const doc = await this.environments.findOne(filter);
    return doc ? environmentDocuments.toDomain(doc) : null;
  }
}
