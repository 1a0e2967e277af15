import { CredentialCipher } from '@app/integrations';
import { EnvironmentScope, PageRequest } from '@app/kernel';
import { ListPage, SigningSecret, WebhookEndpoint, WebhookEndpointChanges, WebhookEndpointRepository } from '@app/webhooks';
import { Doc, DocumentMapper, updateOf } from '../mongo-documents';
import { COLLECTIONS, MongoStore } from '../mongo-store';
import { insertUnlessDuplicate } from '../mongo-writes';

const documents = new DocumentMapper<WebhookEndpoint>({
  fields: ['organizationId', 'environmentId', 'kind', 'url', 'description', 'eventTypes', 'disabled', 'disabledReason', 'createdAt', 'updatedAt'],
  defaults: { disabled: () => false },
});

/** Endpoint ↔ document; the signing secrets are held as the cipher's text of their JSON, never plain. */
export class WebhookEndpointDocuments {
  constructor(private readonly cipher: CredentialCipher) {}

  toDocument(endpoint: WebhookEndpoint): Doc {
    return { ...documents.toDocument(endpoint), secrets: this.seal(endpoint.secrets) };
  }

  toDomain(doc: Doc): WebhookEndpoint {
    const secrets = (JSON.parse(this.cipher.decrypt(doc.secrets)) as { secret: string; expiresAt?: string }[]).map((s) => ({
      secret: s.secret,
      ...(s.expiresAt ? { expiresAt: new Date(s.expiresAt) } : {}),
    }));
    return { ...documents.toDomain(doc), secrets };
  }

  /** The changes as update operators: given fields set, nulls unset, updatedAt moved. */
  changes(changes: WebhookEndpointChanges, now: Date): Doc {
    const $set: Doc = { updatedAt: now };
    const $unset: Doc = {};
    for (const field of ['url', 'description', 'eventTypes', 'disabled', 'disabledReason'] as const) {
      if (changes[field] === null) $unset[field] = '';
      else if (changes[field] !== undefined) $set[field] = changes[field];
    }
    if (changes.secrets !== undefined) $set.secrets = this.seal(changes.secrets);
    return updateOf({ $set, $unset });
  }

  private seal(secrets: SigningSecret[]): string {
    return this.cipher.encrypt(JSON.stringify(secrets.map((s) => ({ secret: s.secret, ...(s.expiresAt ? { expiresAt: s.expiresAt.toISOString() } : {}) }))));
  }
}

/** WebhookEndpointRepository on MongoDB: a partial unique index keeps one reply-callback signer per environment. */
export class MongoWebhookEndpointRepository implements WebhookEndpointRepository {
  private readonly documents: WebhookEndpointDocuments;

  constructor(
    private readonly store: MongoStore,
    cipher: CredentialCipher,
  ) {
    this.documents = new WebhookEndpointDocuments(cipher);
  }

  private get endpoints() {
    return this.store.collection(COLLECTIONS.webhookEndpoints);
  }

  async insert(endpoint: WebhookEndpoint): Promise<void> {
    await this.endpoints.insertOne(this.documents.toDocument(endpoint));
  }

  async ensureReplyCallback(candidate: WebhookEndpoint): Promise<WebhookEndpoint> {
    await insertUnlessDuplicate(() => this.endpoints.insertOne(this.documents.toDocument({ ...candidate, kind: 'reply_callback' })));
    const doc = await this.endpoints.findOne({ environmentId: candidate.environmentId, kind: 'reply_callback' });
    return this.documents.toDomain(doc!);
  }

  async findById(scope: EnvironmentScope, id: string): Promise<WebhookEndpoint | null> {
    const doc = await this.endpoints.findOne({ environmentId: scope.environmentId, _id: id });
    return doc ? this.documents.toDomain(doc) : null;
  }

  async list(scope: EnvironmentScope, page: PageRequest): Promise<ListPage<WebhookEndpoint>> {
    const docs = await this.endpoints
      .find({ environmentId: scope.environmentId, kind: 'endpoint' }, { sort: { createdAt: 1, _id: 1 }, skip: page.page * page.limit, limit: page.limit + 1 })
      .toArray();
    return { items: docs.slice(0, page.limit).map((doc) => this.documents.toDomain(doc)), hasMore: docs.length > page.limit };
  }

  async listEnabled(scope: EnvironmentScope): Promise<WebhookEndpoint[]> {
    const docs = await this.endpoints
      .find({ environmentId: scope.environmentId, kind: 'endpoint', disabled: false }, { sort: { createdAt: 1, _id: 1 } })
      .toArray();
    return docs.map((doc) => this.documents.toDomain(doc));
  }

  async update(scope: EnvironmentScope, id: string, changes: WebhookEndpointChanges, now: Date): Promise<WebhookEndpoint | null> {
    const doc = await this.endpoints.findOneAndUpdate({ environmentId: scope.environmentId, _id: id }, this.documents.changes(changes, now), {
      returnDocument: 'after',
    });
    return doc ? this.documents.toDomain(doc) : null;
  }

  async delete(scope: EnvironmentScope, id: string): Promise<boolean> {
    return (await this.endpoints.deleteOne({ environmentId: scope.environmentId, _id: id, kind: 'endpoint' })).deletedCount === 1;
  }
}
