import {
  ActiveIntegrationQuery,
  CredentialCipher,
  InsertIntegrationResult,
  Integration,
  IntegrationRepository,
  PriorityChange,
  ReplaceIntegrationResult,
} from '@app/integrations';
import { EnvironmentScope } from '@app/kernel';
import { mongo } from 'mongoose';
import { Doc, DocumentMapper } from '../mongo-documents';
import { isDuplicateKey } from '../mongo-errors';
import { COLLECTIONS, MongoStore } from '../mongo-store';

const documents = new DocumentMapper<Integration>({
  fields: [
    'organizationId',
    'environmentId',
    'name',
    'identifier',
    'providerId',
    'channel',
    'configurations',
    'active',
    'primary',
    'priority',
    'conditions',
    'fallbacks',
    'deleted',
    'deletedAt',
    'deletedBy',
    'createdAt',
    'updatedAt',
  ],
  json: ['configurations', 'conditions'],
  defaults: { configurations: () => ({}), conditions: () => [], fallbacks: () => [], primary: () => false, priority: () => 0, deleted: () => false },
});

/** Integration ↔ document; the credentials are held as the cipher's text of their JSON, never plain. */
export class IntegrationDocuments {
  constructor(private readonly cipher: CredentialCipher) {}

  toDocument(integration: Integration): Doc {
    return { ...documents.toDocument(integration), credentials: this.sealed(integration) };
  }

  toDomain(doc: Doc): Integration {
    return { ...documents.toDomain(doc), credentials: JSON.parse(this.cipher.decrypt(doc.credentials)) };
  }

  /** What `replace` writes: every field an update may change. */
  replacement(integration: Integration): Doc {
    const doc = this.toDocument(integration);
    const fields = ['name', 'identifier', 'credentials', 'configurations', 'active', 'primary', 'priority', 'conditions', 'fallbacks', 'updatedAt'];
    return Object.fromEntries(fields.map((field) => [field, doc[field]]));
  }

  private sealed(integration: Integration): string {
    return this.cipher.encrypt(JSON.stringify(integration.credentials));
  }
}

/** The filter of findActive: active, live, of the environment, narrowed by what the query names. */
export function activeIntegrationsFilter(scope: EnvironmentScope, query: ActiveIntegrationQuery): mongo.Filter<Doc> {
  return {
    organizationId: scope.organizationId,
    environmentId: scope.environmentId,
    active: true,
    deleted: false,
    ...(query.channel !== undefined ? { channel: query.channel } : {}),
    ...(query.providerId !== undefined ? { providerId: query.providerId } : {}),
    ...(query.identifier !== undefined ? { identifier: query.identifier } : {}),
  };
}

/** IntegrationRepository on MongoDB: partial unique indexes hold live identifiers and the one in-app `novu` per environment. */
export class MongoIntegrationRepository implements IntegrationRepository {
  private readonly documents: IntegrationDocuments;

  constructor(
    private readonly store: MongoStore,
    cipher: CredentialCipher,
  ) {
    this.documents = new IntegrationDocuments(cipher);
  }

  private get integrations() {
    return this.store.collection(COLLECTIONS.integrations);
  }

  async findActive(scope: EnvironmentScope, query: ActiveIntegrationQuery): Promise<Integration[]> {
    return this.find(activeIntegrationsFilter(scope, query), { createdAt: -1, _id: -1 });
  }

  async insert(integration: Integration): Promise<InsertIntegrationResult> {
    try {
      await this.integrations.insertOne(this.documents.toDocument(integration));
      return 'inserted';
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    // Refused by a unique index: say which rule refused it, as SQL does.
    const taken = await this.integrations.findOne({ environmentId: integration.environmentId, identifier: integration.identifier, deleted: false });
    return taken ? 'identifier_taken' : 'in_app_taken';
  }

  async findById(scope: EnvironmentScope, id: string): Promise<Integration | null> {
    const doc = await this.integrations.findOne({ _id: id, ...this.live(scope) });
    return doc ? this.documents.toDomain(doc) : null;
  }

  list(scope: EnvironmentScope): Promise<Integration[]> {
    return this.find(this.live(scope), { createdAt: 1, _id: 1 });
  }

  listActiveInOrganization(organizationId: string): Promise<Integration[]> {
    return this.find({ organizationId, active: true, deleted: false }, { createdAt: 1, _id: 1 });
  }

  async replace(scope: EnvironmentScope, integration: Integration, expectedUpdatedAt: Date): Promise<ReplaceIntegrationResult> {
    try {
      const result = await this.integrations.updateOne(
        { _id: integration.id, ...this.live(scope), updatedAt: expectedUpdatedAt },
        { $set: this.documents.replacement(integration) },
      );
      return result.matchedCount === 1 ? 'updated' : 'stale';
    } catch (error) {
      // The only unique index an update can hit is the identifier's.
      if (isDuplicateKey(error)) return 'identifier_taken';
      throw error;
    }
  }

  async setPriorities(scope: EnvironmentScope, changes: PriorityChange[]): Promise<void> {
    for (const change of changes) {
      await this.integrations.updateOne({ _id: change.id, ...this.live(scope) }, { $set: { primary: change.primary, priority: change.priority } });
    }
  }

  async softDelete(scope: EnvironmentScope, id: string, deletion: { deletedAt: Date; deletedBy: string }): Promise<boolean> {
    const result = await this.integrations.updateOne(
      { _id: id, ...this.live(scope) },
      { $set: { deleted: true, deletedAt: deletion.deletedAt, deletedBy: deletion.deletedBy } },
    );
    return result.matchedCount === 1;
  }

  private live(scope: EnvironmentScope) {
    return { organizationId: scope.organizationId, environmentId: scope.environmentId, deleted: false };
  }

  private async find(filter: mongo.Filter<Doc>, sort: Record<string, 1 | -1>): Promise<Integration[]> {
    const docs = await this.integrations.find(filter, { sort }).toArray();
    return docs.map((doc) => this.documents.toDomain(doc));
  }
}
