import { INDEXES, IndexDefinition, lockClaim } from './mongo-indexes';
import { COLLECTIONS } from './mongo-store';

/** The unique keys the contract suites rely on (what SQL's constraints hold), by collection: fields in order, and the partial filter. */
const UNIQUE_KEYS: [collection: string, fields: string[], partial: Record<string, unknown> | null][] = [
  // an environment name per organization, the public identifier, an API key hash
  ['environments', ['organizationId', 'name'], null],
  ['environments', ['identifier'], null],
  ['api_keys', ['hash'], null],
  // a subscriberId per environment; one preference record per (environment, subscriber, workflow or global)
  ['subscribers', ['environmentId', 'subscriberId'], null],
  ['subscriber_preferences', ['environmentId', 'subscriberId', 'workflowId'], null],
  // a topic key per environment, a subscriber once per topic
  ['topics', ['environmentId', 'key'], null],
  ['topic_subscriptions', ['topicId', 'subscriberId'], null],
  ['tenants', ['environmentId', 'identifier'], null],
  // a context per (environment, type, id); an environment variable key per organization
  ['contexts', ['environmentId', 'type', 'identifier'], null],
  ['environment_variables', ['organizationId', 'key'], null],
  // live integrations: an identifier per environment, one in-app `novu` per environment, one priority per active one of a channel
  ['integrations', ['environmentId', 'identifier'], { deleted: false }],
  ['integrations', ['environmentId'], { providerId: 'novu', channel: 'in_app', deleted: false }],
  ['integrations', ['environmentId', 'channel', 'priority'], { active: true, deleted: false, priority: { $gt: 0 } }],
  // a live workflow's trigger identifier per environment
  ['workflows', ['environmentId', 'triggerIdentifier'], { deleted: false }],
  // a layoutId per environment
  ['layouts', ['environmentId', 'layoutId'], null],
  // a transactionId per environment (a repeated trigger delivers nothing)
  ['triggers', ['environmentId', 'transactionId'], null],
  ['digest_buckets', ['environmentId', 'bucketKey'], null],
  ['delivery_events', ['integrationId', 'eventKey'], null],
  ['suppressions', ['environmentId', 'address'], null],
  ['queue_jobs', ['queue', 'id'], null],
  ['webhook_endpoints', ['environmentId'], { kind: 'reply_callback' }],
  // one translation per resource and locale
  ['translations', ['environmentId', 'resourceType', 'resourceKey', 'locale'], null],
];

const uniques = (collection: string) => (INDEXES as Record<string, IndexDefinition[]>)[collection].filter((index) => index.unique);

describe('index definitions', () => {
  it('cover every collection the adapter writes', () => {
    expect(Object.keys(INDEXES).sort()).toEqual(Object.values(COLLECTIONS).sort());
  });

  it.each(UNIQUE_KEYS)('%s holds a unique key on %j', (collection, fields, partial) => {
    const matching = uniques(collection).filter((index) => JSON.stringify(Object.keys(index.key)) === JSON.stringify(fields));
    expect(matching).toHaveLength(1);
    expect(matching[0].partialFilterExpression ?? null).toEqual(partial);
  });

  it('hold no unique key beyond those (a stray one would refuse writes SQL accepts)', () => {
    const declared = Object.entries(INDEXES).flatMap(([collection, indexes]) =>
      indexes.filter((index) => index.unique).map((index) => `${collection}:${Object.keys(index.key).join(',')}`),
    );
    expect(declared.sort()).toEqual(UNIQUE_KEYS.map(([collection, fields]) => `${collection}:${fields.join(',')}`).sort());
  });

  it('name each index once per collection, and use only filters a partial index accepts (equality, $exists: true, $gt: 0)', () => {
    for (const indexes of Object.values(INDEXES)) {
      const names = indexes.map((index) => index.name);
      expect(new Set(names).size).toBe(names.length);
      for (const { partialFilterExpression } of indexes) {
        for (const value of Object.values(partialFilterExpression ?? {})) {
          if (value !== null && typeof value === 'object') expect([{ $exists: true }, { $gt: 0 }]).toContainEqual(value);
          else expect(['string', 'boolean', 'number']).toContain(typeof value);
        }
      }
    }
  });

  it('expire idempotency keys by their own expiry time', () => {
    expect(INDEXES.idempotency_keys).toEqual([{ name: 'idempotency_keys_expiry', key: { expiresAt: 1 }, expireAfterSeconds: 0 }]);
  });
});

describe('the index-creation lock', () => {
  it('is taken when absent or expired, for a lease from now', () => {
    const now = new Date('2025-01-01T00:00:00.000Z');
    expect(lockClaim('host:1:ab', now, 120_000)).toEqual({
      filter: { _id: 'indexes', until: { $lt: now } },
      update: { $set: { holder: 'host:1:ab', until: new Date('2025-01-01T00:02:00.000Z') } },
    });
  });
});
