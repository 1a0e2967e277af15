import {
  ActiveIntegrationQuery,
  CredentialCipher,
  InsertIntegrationResult,
  Integration,
  IntegrationRepository,
  PriorityChange,
  RankIntegrationsResult,
  RankedIntegration,
  ReplaceIntegrationResult,
  rankChannel,
} from '@app/integrations';
import { Channel, EnvironmentScope } from '@app/kernel';
import { mongo } from 'mongoose';
import { Doc, DocumentMapper } from '../mongo-documents';
import { duplicateKeyFields, isDuplicateKey } from '../mongo-errors';
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
    'rateLimit',
    'maxConcurrency',
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
    // A limit cleared goes back to the provider's default: stored null, read back absent.
    const limits = ['rateLimit', 'maxConcurrency'];
    return Object.fromEntries([...fields.map((field) => [field, doc[field]]), ...limits.map((field) => [field, doc[field] ?? null])]);
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

/**
 * One transaction: writes the changes only if the channel's active integrations are exactly the
 * expected ones (a transaction that read before another wrote them conflicts and runs again, and then
 * finds them changed). The unique index on the priority refuses a duplicate whatever slipped past.
 */
async function writeRanking(
  store: MongoStore,
  scope: EnvironmentScope,
  channel: Channel,
  expected: RankedIntegration[],
  changes: PriorityChange[],
): Promise<RankIntegrationsResult> {
  const integrations = store.collection(COLLECTIONS.integrations);
  try {
    return await store.transaction(async (session) => {
      const current = await integrations
        .find(
          { organizationId: scope.organizationId, environmentId: scope.environmentId, deleted: false, channel, active: true },
          { session, projection: { primary: 1, priority: 1, updatedAt: 1 } },
        )
        .toArray();
      const holds =
        current.length === expected.length &&
        expected.every((e) =>
          current.some((c) => c._id === e.id && c.primary === e.primary && c.priority === e.priority && c.updatedAt?.getTime() === e.updatedAt.getTime()),
        );
      if (!holds || !changes.every((change) => current.some((c) => c._id === change.id))) return 'stale';
      // Two passes: the unique index checks each write, and a swap of priorities would meet it half way.
      const write = (update: (change: PriorityChange, index: number) => Doc) =>
        integrations.bulkWrite(
          changes.map((change, index) => ({ updateOne: { filter: { _id: change.id }, update: { $set: update(change, index) } } })),
          { session, ordered: true },
        );
      await write((_, index) => ({ priority: -(index + 1) }));
      await write((change) => ({ primary: change.primary, priority: change.priority, updatedAt: change.updatedAt }));
      return 'ranked';
    });
  } catch (error) {
    // A duplicate priority (an integration the expected ranking did not know): refused, as SQL's exclusion constraint refuses it.
    if (isDuplicateKey(error)) return 'stale';
    throw error;
  }
}

/**
 * Ranks again, by the ranking rule, every channel whose active integrations share a priority:
 * concurrent rankings could leave that before the unique index on the priority existed, and the
 * index cannot be built over it. Run before the indexes are created.
 */
export async function rankSharedPriorities(store: MongoStore, now: Date): Promise<void> {
  const clashing = await store
    .collection(COLLECTIONS.integrations)
    .aggregate<{ _id: { organizationId: string; environmentId: string; channel: Channel } }>([
      { $match: { active: true, deleted: false, priority: { $gt: 0 } } },
      {
        $group: { _id: { organizationId: '$organizationId', environmentId: '$environmentId', channel: '$channel', priority: '$priority' }, count: { $sum: 1 } },
      },
      { $match: { count: { $gt: 1 } } },
      { $group: { _id: { organizationId: '$_id.organizationId', environmentId: '$_id.environmentId', channel: '$_id.channel' } } },
    ])
    .toArray();
  for (const { _id: scope } of clashing) {
    const docs = await store
      .collection(COLLECTIONS.integrations)
      .find({ organizationId: scope.organizationId, environmentId: scope.environmentId, channel: scope.channel, active: true, deleted: false })
      .toArray();
    const active = docs.map((doc) => ({ id: doc._id, primary: doc.primary, priority: doc.priority, createdAt: doc.createdAt, updatedAt: doc.updatedAt }));
    await writeRanking(store, scope, scope.channel, active, rankChannel(active, { kind: 'renumber' }, now));
  }
}

/**
 * IntegrationRepository on MongoDB: partial unique indexes hold live identifiers, the one in-app `novu`
 * per environment and one priority per active integration of a channel; a ranking is one transaction.
 */
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
      if (!isDuplicateKey(error) || duplicateKeyFields(error).includes('priority')) throw error;
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
      // The identifier's unique index; the priority's refuses the write (StoreRejectedError), as SQL's constraint does.
      if (isDuplicateKey(error) && !duplicateKeyFields(error).includes('priority')) return 'identifier_taken';
      throw error;
    }
  }

  async rank(scope: EnvironmentScope, channel: Channel, expected: RankedIntegration[], changes: PriorityChange[]): Promise<RankIntegrationsResult> {
    return writeRanking(this.store, scope, channel, expected, changes);
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
