import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { COLLECTIONS, CollectionName, MongoStore } from './mongo-store';
import { isDuplicateKey } from './mongo-errors';
import { rankSharedPriorities } from './integrations/mongo-integration.repository';

export interface IndexDefinition {
  name: string;
  key: Record<string, 1 | -1>;
  unique?: true;
  /** Only documents matching it are indexed (the SQL partial indexes' WHERE). */
  partialFilterExpression?: Record<string, unknown>;
  /** A TTL index: MongoDB deletes a document once this many seconds have passed since the key's date. */
  expireAfterSeconds?: number;
}

const LIVE = { deleted: false };

/**
 * The indexes of every collection: the unique ones carry what the SQL constraints carry (an
 * insert-if-absent is an insert refused by one of them), the others serve the reads and sorts the
 * repositories make. Created at start (ensureIndexes) in place of the SQL migrations.
 */
export const INDEXES: Record<CollectionName, IndexDefinition[]> = {
  [COLLECTIONS.storeLocks]: [],
  [COLLECTIONS.systemClaims]: [],
  [COLLECTIONS.organizations]: [],
  [COLLECTIONS.environments]: [
    { name: 'environments_organization_name', key: { organizationId: 1, name: 1 }, unique: true },
    { name: 'environments_identifier', key: { identifier: 1 }, unique: true },
  ],
  [COLLECTIONS.apiKeys]: [
    { name: 'api_keys_hash', key: { hash: 1 }, unique: true },
    { name: 'api_keys_environment', key: { environmentId: 1, _id: 1 } },
  ],
  // Expired claims are taken over by the next claim anyway; the TTL index only keeps the collection small.
  [COLLECTIONS.idempotencyKeys]: [{ name: 'idempotency_keys_expiry', key: { expiresAt: 1 }, expireAfterSeconds: 0 }],
  [COLLECTIONS.subscribers]: [
    { name: 'subscribers_environment_subscriber_id', key: { environmentId: 1, subscriberId: 1 }, unique: true },
    { name: 'subscribers_environment_id', key: { environmentId: 1, _id: 1 } },
    { name: 'subscribers_environment_created', key: { environmentId: 1, createdAt: 1, _id: 1 } },
    { name: 'subscribers_environment_updated', key: { environmentId: 1, updatedAt: 1, _id: 1 } },
  ],
  [COLLECTIONS.preferences]: [{ name: 'preferences_environment_subscriber_workflow', key: { environmentId: 1, subscriberId: 1, workflowId: 1 }, unique: true }],
  [COLLECTIONS.topics]: [
    { name: 'topics_environment_key', key: { environmentId: 1, key: 1 }, unique: true },
    { name: 'topics_environment_id', key: { environmentId: 1, _id: 1 } },
    { name: 'topics_environment_created', key: { environmentId: 1, createdAt: 1, _id: 1 } },
    { name: 'topics_environment_updated', key: { environmentId: 1, updatedAt: 1, _id: 1 } },
  ],
  [COLLECTIONS.topicSubscriptions]: [
    { name: 'topic_subscriptions_topic_subscriber', key: { topicId: 1, subscriberId: 1 }, unique: true },
    { name: 'topic_subscriptions_topic_id', key: { topicId: 1, _id: 1 } },
    { name: 'topic_subscriptions_topic_created', key: { topicId: 1, createdAt: 1, _id: 1 } },
    { name: 'topic_subscriptions_topic_updated', key: { topicId: 1, updatedAt: 1, _id: 1 } },
    { name: 'topic_subscriptions_subscriber', key: { environmentId: 1, subscriberId: 1, _id: 1 } },
  ],
  [COLLECTIONS.tenants]: [
    { name: 'tenants_environment_identifier', key: { environmentId: 1, identifier: 1 }, unique: true },
    { name: 'tenants_environment_created', key: { environmentId: 1, createdAt: 1, _id: 1 } },
  ],
  [COLLECTIONS.contexts]: [
    { name: 'contexts_environment_type_identifier', key: { environmentId: 1, type: 1, identifier: 1 }, unique: true },
    { name: 'contexts_environment_id', key: { environmentId: 1, _id: 1 } },
    { name: 'contexts_environment_created', key: { environmentId: 1, createdAt: 1, _id: 1 } },
    { name: 'contexts_environment_updated', key: { environmentId: 1, updatedAt: 1, _id: 1 } },
  ],
  [COLLECTIONS.environmentVariables]: [
    { name: 'environment_variables_organization_key', key: { organizationId: 1, key: 1 }, unique: true },
    { name: 'environment_variables_organization_created', key: { organizationId: 1, createdAt: 1, _id: 1 } },
  ],
  // A soft-deleted integration frees its identifier (and the environment's in-app slot): uniqueness covers live ones only.
  [COLLECTIONS.integrations]: [
    { name: 'integrations_identifier_live', key: { environmentId: 1, identifier: 1 }, unique: true, partialFilterExpression: LIVE },
    {
      name: 'integrations_one_novu_in_app',
      key: { environmentId: 1 },
      unique: true,
      partialFilterExpression: { providerId: 'novu', channel: 'in_app', deleted: false },
    },
    // No two active integrations of a channel on one priority above 0 (SQL's exclusion constraint).
    {
      name: 'integrations_one_priority_per_channel',
      key: { environmentId: 1, channel: 1, priority: 1 },
      unique: true,
      partialFilterExpression: { active: true, deleted: false, priority: { $gt: 0 } },
    },
    { name: 'integrations_environment_created', key: { organizationId: 1, environmentId: 1, createdAt: 1, _id: 1 } },
    { name: 'integrations_organization_active', key: { organizationId: 1, active: 1, createdAt: 1, _id: 1 } },
  ],
  // A deleted workflow frees its trigger identifier.
  [COLLECTIONS.workflows]: [
    { name: 'workflows_trigger_identifier_live', key: { environmentId: 1, triggerIdentifier: 1 }, unique: true, partialFilterExpression: LIVE },
    { name: 'workflows_environment_created', key: { environmentId: 1, createdAt: -1, _id: -1 } },
  ],
  // the environment's default: the layout with the latest mark
  [COLLECTIONS.layouts]: [
    { name: 'layouts_environment_layout_id', key: { environmentId: 1, layoutId: 1 }, unique: true },
    { name: 'layouts_environment_created', key: { environmentId: 1, createdAt: -1, _id: -1 } },
    { name: 'layouts_environment_default', key: { environmentId: 1, defaultSince: -1, _id: -1 }, partialFilterExpression: { defaultSince: { $exists: true } } },
  ],
  [COLLECTIONS.triggers]: [
    { name: 'triggers_environment_transaction', key: { environmentId: 1, transactionId: 1 }, unique: true },
    { name: 'triggers_accepted', key: { status: 1, createdAt: 1, _id: 1 }, partialFilterExpression: { status: 'accepted' } },
    { name: 'triggers_created', key: { createdAt: 1, _id: 1 } },
  ],
  [COLLECTIONS.notifications]: [
    { name: 'notifications_environment_created', key: { environmentId: 1, createdAt: -1, _id: -1 } },
    { name: 'notifications_environment_transaction', key: { environmentId: 1, transactionId: 1 } },
    { name: 'notifications_environment_subscriber', key: { environmentId: 1, subscriberId: 1, createdAt: -1 } },
    { name: 'notifications_created', key: { createdAt: 1, _id: 1 } },
  ],
  [COLLECTIONS.jobs]: [
    { name: 'jobs_notification', key: { notificationId: 1, createdAt: 1, _id: 1 } },
    { name: 'jobs_environment_transaction_status', key: { environmentId: 1, transactionId: 1, status: 1 } },
    { name: 'jobs_parent', key: { parentId: 1, createdAt: 1, _id: 1 } },
    { name: 'jobs_status_updated', key: { status: 1, updatedAt: 1 } },
    { name: 'jobs_status_run_at', key: { status: 1, runAt: 1 } },
    { name: 'jobs_created', key: { createdAt: 1, _id: 1 } },
  ],
  [COLLECTIONS.executionDetails]: [
    { name: 'execution_details_job', key: { jobId: 1, createdAt: 1, _id: 1 } },
    { name: 'execution_details_created', key: { createdAt: 1, _id: 1 } },
  ],
  [COLLECTIONS.messages]: [
    { name: 'messages_environment_created', key: { environmentId: 1, createdAt: -1, _id: -1 } },
    { name: 'messages_environment_transaction', key: { environmentId: 1, transactionId: 1 } },
    { name: 'messages_environment_subscriber', key: { environmentId: 1, subscriberId: 1, createdAt: -1 } },
    { name: 'messages_job', key: { jobId: 1, createdAt: 1, _id: 1 } },
    { name: 'messages_created', key: { createdAt: 1, _id: 1 } },
    {
      name: 'messages_provider_identifier',
      key: { environmentId: 1, providerId: 1, identifier: 1 },
      partialFilterExpression: { identifier: { $exists: true } },
    },
    { name: 'messages_inbox', key: { environmentId: 1, subscriberId: 1, channel: 1, createdAt: -1, _id: -1 } },
    { name: 'messages_snoozed', key: { snoozedUntil: 1 }, partialFilterExpression: { snoozedUntil: { $exists: true } } },
  ],
  [COLLECTIONS.digestBuckets]: [{ name: 'digest_buckets_environment_key', key: { environmentId: 1, bucketKey: 1 }, unique: true }],
  // a window's key is its _id; retention finds the windows that ended
  [COLLECTIONS.throttleWindows]: [{ name: 'throttle_windows_ends', key: { endsAt: 1, _id: 1 } }],
  [COLLECTIONS.deliveryEvents]: [
    { name: 'delivery_events_integration_key', key: { integrationId: 1, eventKey: 1 }, unique: true },
    { name: 'delivery_events_message', key: { messageId: 1, occurredAt: 1, _id: 1 } },
    { name: 'delivery_events_created', key: { createdAt: 1, _id: 1 } },
  ],
  [COLLECTIONS.suppressions]: [
    { name: 'suppressions_environment_address', key: { environmentId: 1, address: 1 }, unique: true },
    { name: 'suppressions_newest', key: { environmentId: 1, createdAt: -1, address: 1 } },
  ],
  [COLLECTIONS.queueJobs]: [
    { name: 'queue_jobs_queue_id', key: { queue: 1, id: 1 }, unique: true },
    { name: 'queue_jobs_due', key: { queue: 1, state: 1, runAt: 1, _id: 1 } },
    { name: 'queue_jobs_leases', key: { state: 1, lockedBy: 1, lockedUntil: 1 } },
    { name: 'queue_jobs_finished', key: { queue: 1, state: 1, finishedAt: 1 } },
  ],
  [COLLECTIONS.webhookEndpoints]: [
    { name: 'webhook_endpoints_environment', key: { environmentId: 1, createdAt: 1, _id: 1 } },
    {
      name: 'webhook_endpoints_one_reply_callback',
      key: { environmentId: 1 },
      unique: true,
      partialFilterExpression: { kind: 'reply_callback' },
    },
  ],
  [COLLECTIONS.webhookDeliveries]: [
    { name: 'webhook_deliveries_pending', key: { status: 1, nextAttemptAt: 1 } },
    { name: 'webhook_deliveries_created', key: { createdAt: 1, _id: 1 } },
  ],
  [COLLECTIONS.webhookAttempts]: [
    { name: 'webhook_attempts_endpoint', key: { environmentId: 1, endpointId: 1, createdAt: -1, _id: -1 } },
    { name: 'webhook_attempts_success', key: { endpointId: 1, success: 1, createdAt: 1 } },
    { name: 'webhook_attempts_created', key: { createdAt: 1, _id: 1 } },
  ],
  [COLLECTIONS.translations]: [
    { name: 'translations_environment_resource_locale', key: { environmentId: 1, resourceType: 1, resourceKey: 1, locale: 1 }, unique: true },
    { name: 'translations_environment_locale', key: { environmentId: 1, locale: 1 } },
  ],
  // one document per environment, keyed by its id
  [COLLECTIONS.translationSettings]: [],
};

/** The lock document that serialises index creation: one process builds at a time, the others wait. */
const INDEX_LOCK = 'indexes';
/** A holder that died keeps the lock this long at most. */
const LOCK_LEASE_MS = 120_000;
const LOCK_WAIT_MS = 250;

/** The write that takes the lock: succeeds (as an update or an insert) when nobody holds it or the holder's lease ran out. */
export function lockClaim(holder: string, now: Date, leaseMs = LOCK_LEASE_MS) {
  return {
    filter: { _id: INDEX_LOCK, until: { $lt: now } },
    update: { $set: { holder, until: new Date(now.getTime() + leaseMs) } },
  };
}

async function acquireIndexLock(store: MongoStore, holder: string, timeoutMs: number): Promise<void> {
  const locks = store.collection(COLLECTIONS.storeLocks);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { filter, update } = lockClaim(holder, new Date());
    try {
      // Held and unexpired: the filter matches nothing, the upsert's insert hits the _id, E11000.
      await locks.updateOne(filter, update, { upsert: true });
      return;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    if (Date.now() > deadline) throw new Error(`MongoDB index creation: the lock is still held by another process after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, LOCK_WAIT_MS));
  }
}

/**
 * Creates every collection's indexes, under a lock document so that many processes starting at
 * once build them one after the other (each finds the work done and returns quickly).
 * createIndexes leaves an existing identical index alone.
 */
export async function ensureIndexes(store: MongoStore, timeoutMs = LOCK_LEASE_MS): Promise<void> {
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  await acquireIndexLock(store, holder, timeoutMs);
  try {
    await rankSharedPriorities(store, new Date());
    for (const [name, indexes] of Object.entries(INDEXES) as [CollectionName, IndexDefinition[]][]) {
      if (indexes.length) await store.collection(name).createIndexes(indexes);
    }
  } finally {
    await store.collection(COLLECTIONS.storeLocks).deleteOne({ _id: INDEX_LOCK, holder });
  }
}
