import { Channel, EnvironmentScope } from '@app/kernel';
import { PreferenceChange, PreferenceRepository, SubscriberPreference } from '@app/subscribers';
import { Doc, DocumentMapper } from '../mongo-documents';
import { upsertOne } from '../mongo-writes';
import { storedJsonPath, toStoredJson } from '../mongo-json';
import { COLLECTIONS, MongoStore } from '../mongo-store';

// The global record is stored under an empty workflow id, as in SQL: one unique index covers both kinds.
const GLOBAL = '';

const documents = new DocumentMapper<SubscriberPreference>({
  fields: ['organizationId', 'environmentId', 'subscriberId', 'workflowId', 'channels', 'schedule', 'enabled', 'createdAt', 'updatedAt'],
  json: ['channels', 'schedule'],
  defaults: { channels: () => ({}) },
});

export const preferenceDocuments = {
  toDocument: (preference: SubscriberPreference): Doc => ({ ...documents.toDocument(preference), workflowId: preference.workflowId ?? GLOBAL }),
  toDomain(doc: Doc): SubscriberPreference {
    const preference = documents.toDomain(doc);
    preference.workflowId = doc.workflowId === GLOBAL || doc.workflowId == null ? null : doc.workflowId;
    return preference;
  },
};

/** The upsert of one change: channels merged key by key ($set of each), the schedule and the switch replaced when given. */
export function preferenceUpsert(scope: EnvironmentScope, change: PreferenceChange) {
  const $set: Doc = { updatedAt: change.at };
  for (const [channel, enabled] of Object.entries(change.channels)) {
    if (enabled !== undefined) $set[storedJsonPath('channels', channel)] = enabled;
  }
  if (change.schedule) $set.schedule = toStoredJson(change.schedule);
  if (change.enabled !== undefined) $set.enabled = change.enabled;
  return {
    filter: { environmentId: scope.environmentId, subscriberId: change.subscriberId, workflowId: change.workflowId ?? GLOBAL },
    update: { $setOnInsert: { organizationId: scope.organizationId, createdAt: change.at }, $set },
  };
}

/** PreferenceRepository on MongoDB: one document per (environment, subscriber, workflow or global), held by a unique index. */
export class MongoPreferenceRepository implements PreferenceRepository {
  constructor(private readonly store: MongoStore) {}

  private get preferences() {
    return this.store.collection(COLLECTIONS.preferences);
  }

  async upsert(scope: EnvironmentScope, change: PreferenceChange): Promise<SubscriberPreference> {
    const { filter, update } = preferenceUpsert(scope, change);
    // One write: concurrent writers of different channels both land.
    return preferenceDocuments.toDomain((await upsertOne(this.preferences, filter, update)).doc);
  }

  async listForSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<SubscriberPreference[]> {
    const docs = await this.preferences.find(this.ofSubscriber(scope, subscriberId), { sort: { workflowId: 1 } }).toArray();
    return docs.map((doc) => preferenceDocuments.toDomain(doc));
  }

  async findForWorkflow(
    scope: EnvironmentScope,
    subscriberId: string,
    workflowId: string,
  ): Promise<{ global: SubscriberPreference | null; workflow: SubscriberPreference | null }> {
    const docs = await this.preferences.find({ ...this.ofSubscriber(scope, subscriberId), workflowId: { $in: [GLOBAL, workflowId] } }).toArray();
    const records = docs.map((doc) => preferenceDocuments.toDomain(doc));
    return {
      global: records.find((r) => r.workflowId === null) ?? null,
      workflow: records.find((r) => r.workflowId === workflowId) ?? null,
    };
  }

  async removeWorkflowChannels(scope: EnvironmentScope, subscriberId: string, channels: Channel[]): Promise<void> {
    if (!channels.length) return;
    await this.preferences.updateMany(
      { ...this.ofSubscriber(scope, subscriberId), workflowId: { $ne: GLOBAL } },
      { $unset: Object.fromEntries(channels.map((channel) => [storedJsonPath('channels', channel), ''])) },
    );
  }

  async deleteForSubscriber(scope: EnvironmentScope, subscriberId: string): Promise<void> {
    await this.preferences.deleteMany(this.ofSubscriber(scope, subscriberId));
  }

  /** The SQL adapter reads by environment and organization both. */
  private ofSubscriber(scope: EnvironmentScope, subscriberId: string) {
    return { environmentId: scope.environmentId, subscriberId, organizationId: scope.organizationId };
  }
}
