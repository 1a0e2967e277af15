import { randomBytes } from 'node:crypto';
import { AesGcmCredentialCipher, Integration, IntegrationRepository } from '@app/integrations';
import { EnvironmentScope, StoreRejectedError, newId } from '@app/kernel';
import { SqlIntegrationRepository } from '@app/store-sql';
import { COLLECTIONS } from '@app/store-mongo';
import { REPOSITORY_STORES, SQL_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract, openMongoContractStore } from '../support/mongo-store';

/** The IntegrationRepository contract; every store adapter must pass it. */
function integrationRepositoryContract(open: () => Promise<{ repository: IntegrationRepository; close(): Promise<void> }>) {
  let repository: IntegrationRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  const organizationId = newId();
  const scope: EnvironmentScope = { organizationId, environmentId: newId() };
  const otherEnvironment: EnvironmentScope = { organizationId, environmentId: newId() };
  const otherOrganization: EnvironmentScope = { organizationId: newId(), environmentId: newId() };
  let clock = Date.UTC(2025, 0, 1);

  const integration = (overrides: Partial<Integration> = {}, at: EnvironmentScope = scope): Integration => {
    const now = new Date((clock += 1000));
    return {
      id: newId(now.getTime()),
      organizationId: at.organizationId,
      environmentId: at.environmentId,
      name: 'SendGrid',
      identifier: `sendgrid-${randomBytes(4).toString('hex')}`,
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { apiKey: 'SG.super-secret-key', from: 'no-reply@example.com', senderName: 'Example' },
      configurations: {},
      active: true,
      primary: false,
      priority: 0,
      conditions: [],
      fallbacks: [],
      deleted: false,
      createdAt: now,
      updatedAt: now,
      ...overrides,
    };
  };

  it('stores an integration and reads it back whole, credentials decrypted', async () => {
    const created = integration({
      conditions: [{ isNegated: false, type: 'BOOLEAN', value: 'AND', children: [{ field: 'identifier', value: 'acme', operator: 'EQUAL', on: 'tenant' }] }],
      configurations: { inboundWebhookEnabled: true },
      credentials: { apiKey: 'SG.super-secret-key', secure: true, tlsOptions: { rejectUnauthorized: false } },
      primary: true,
      priority: 1,
      fallbacks: ['ses-backup', 'smtp-last-resort'],
      rateLimit: { perSecond: 50, burst: 20 },
      maxConcurrency: 8,
    });
    expect(await repository.insert(created)).toBe('inserted');
    const found = await repository.findById(scope, created.id);
    expect(found).toEqual(created);
    expect(found).not.toHaveProperty('deletedAt');
    expect(found).not.toHaveProperty('deletedBy');
  });

  it('refuses a second live identifier in the environment, even to concurrent inserts', async () => {
    const first = integration();
    expect(await repository.insert(first)).toBe('inserted');
    expect(await repository.insert(integration({ identifier: first.identifier }))).toBe('identifier_taken');
    expect(await repository.insert(integration({ identifier: first.identifier }, otherEnvironment))).toBe('inserted');

    const identifier = `race-${randomBytes(4).toString('hex')}`;
    const results = await Promise.all([1, 2, 3, 4].map(() => repository.insert(integration({ identifier }))));
    expect(results.filter((r) => r === 'inserted')).toHaveLength(1);
    expect(results.filter((r) => r === 'identifier_taken')).toHaveLength(3);
  });

  it('allows one in-app novu integration per environment', async () => {
    const env: EnvironmentScope = { organizationId, environmentId: newId() };
    const inApp = (identifier: string) => integration({ providerId: 'novu', channel: 'in_app', name: 'Novu In-App', identifier, credentials: {} }, env);
    expect(await repository.insert(inApp('novu-a'))).toBe('inserted');
    expect(await repository.insert(inApp('novu-b'))).toBe('in_app_taken');
    expect(await repository.insert(integration({ providerId: 'novu', channel: 'in_app', identifier: 'novu-c' }, otherOrganization))).toBe('inserted');
  });

  it('never shows an integration to another environment or organization', async () => {
    const created = integration();
    await repository.insert(created);
    expect(await repository.findById(otherEnvironment, created.id)).toBeNull();
    expect(await repository.findById({ organizationId: newId(), environmentId: scope.environmentId }, created.id)).toBeNull();
    expect((await repository.list(otherEnvironment)).map((i) => i.id)).not.toContain(created.id);
    expect(await repository.findById(scope, newId())).toBeNull();
  });

  it('lists the environment oldest first, and the active ones newest first with filters', async () => {
    const env: EnvironmentScope = { organizationId: newId(), environmentId: newId() };
    const a = integration({ channel: 'sms', providerId: 'twilio', identifier: 'a' }, env);
    const b = integration({ channel: 'sms', providerId: 'nexmo', identifier: 'b' }, env);
    const c = integration({ channel: 'sms', providerId: 'twilio', identifier: 'c', active: false }, env);
    const d = integration({ channel: 'email', identifier: 'd' }, env);
    for (const i of [a, b, c, d]) await repository.insert(i);

    expect((await repository.list(env)).map((i) => i.identifier)).toEqual(['a', 'b', 'c', 'd']);
    expect((await repository.findActive(env, {})).map((i) => i.identifier)).toEqual(['d', 'b', 'a']);
    expect((await repository.findActive(env, { channel: 'sms' })).map((i) => i.identifier)).toEqual(['b', 'a']);
    expect((await repository.findActive(env, { providerId: 'twilio' })).map((i) => i.identifier)).toEqual(['a']);
    expect((await repository.findActive(env, { identifier: 'b', channel: 'sms' })).map((i) => i.identifier)).toEqual(['b']);
    expect(await repository.findActive(env, { identifier: 'c' })).toEqual([]);
  });

  it('lists the active integrations of a whole organization across its environments', async () => {
    const org = newId();
    const dev: EnvironmentScope = { organizationId: org, environmentId: newId() };
    const prod: EnvironmentScope = { organizationId: org, environmentId: newId() };
    const inDev = integration({ identifier: 'dev' }, dev);
    const inProd = integration({ identifier: 'prod' }, prod);
    await repository.insert(inDev);
    await repository.insert(inProd);
    await repository.insert(integration({ identifier: 'off', active: false }, prod));
    await repository.insert(integration({ identifier: 'elsewhere' }, { organizationId: newId(), environmentId: newId() }));
    expect((await repository.listActiveInOrganization(org)).map((i) => i.identifier)).toEqual(['dev', 'prod']);
  });

  it('updates by compare-and-set on updatedAt', async () => {
    const created = integration();
    await repository.insert(created);
    const next = {
      ...created,
      name: 'Renamed',
      credentials: { apiKey: 'SG.rotated' },
      fallbacks: ['ses-backup'],
      updatedAt: new Date(created.updatedAt.getTime() + 5),
    };
    expect(await repository.replace(scope, next, created.updatedAt)).toBe('updated');
    expect(await repository.findById(scope, created.id)).toEqual(next);
    // A writer that read the old version loses.
    expect(await repository.replace(scope, { ...created, name: 'Lost' }, created.updatedAt)).toBe('stale');
    expect((await repository.findById(scope, created.id))!.name).toBe('Renamed');
    // Another environment cannot write it.
    expect(await repository.replace(otherEnvironment, { ...next, name: 'Foreign' }, next.updatedAt)).toBe('stale');
  });

  it('replaces the delivery limits, and clears them back to absent', async () => {
    const created = integration({ rateLimit: { perSecond: 1 }, maxConcurrency: 2 });
    await repository.insert(created);
    const limited = { ...created, rateLimit: { perSecond: 300, burst: 100 }, maxConcurrency: 40, updatedAt: new Date(created.updatedAt.getTime() + 5) };
    expect(await repository.replace(scope, limited, created.updatedAt)).toBe('updated');
    expect(await repository.findById(scope, created.id)).toEqual(limited);
    const { rateLimit: _rate, maxConcurrency: _concurrency, ...cleared } = { ...limited, updatedAt: new Date(limited.updatedAt.getTime() + 5) };
    expect(await repository.replace(scope, cleared, limited.updatedAt)).toBe('updated');
    const found = await repository.findById(scope, created.id);
    expect(found).toEqual(cleared);
    expect(found).not.toHaveProperty('rateLimit');
    expect(found).not.toHaveProperty('maxConcurrency');
  });

  it('answers identifier_taken when an update takes a used identifier', async () => {
    const first = integration();
    const second = integration();
    await repository.insert(first);
    await repository.insert(second);
    const clash = { ...second, identifier: first.identifier, updatedAt: new Date(second.updatedAt.getTime() + 1) };
    expect(await repository.replace(scope, clash, second.updatedAt)).toBe('identifier_taken');
    expect((await repository.findById(scope, second.id))!.identifier).toBe(second.identifier);
  });

  describe('rank', () => {
    const channelOf = async (env: EnvironmentScope) =>
      (await repository.findActive(env, { channel: 'sms' })).map(({ id, primary, priority, createdAt, updatedAt }) => ({
        id,
        primary,
        priority,
        createdAt,
        updatedAt,
      }));
    const sms = (overrides: Partial<Integration>, env: EnvironmentScope) => integration({ providerId: 'twilio', channel: 'sms', ...overrides }, env);
    const later = (date: Date) => new Date(date.getTime() + 1000);

    it('writes flags, priorities and updatedAt when the channel is as expected, in one write that may swap priorities', async () => {
      const env: EnvironmentScope = { organizationId, environmentId: newId() };
      const a = sms({ primary: true, priority: 2 }, env);
      const b = sms({ priority: 1 }, env);
      await repository.insert(a);
      await repository.insert(b);
      await repository.insert(sms({ active: false }, env));
      const expected = await channelOf(env);
      expect(expected).toHaveLength(2);
      const changes = [
        { id: a.id, primary: false, priority: 1, updatedAt: later(a.updatedAt) },
        { id: b.id, primary: true, priority: 2, updatedAt: later(b.updatedAt) },
      ];
      expect(await repository.rank(env, 'sms', expected, changes)).toBe('ranked');
      expect(await repository.findById(env, a.id)).toMatchObject({ primary: false, priority: 1, updatedAt: later(a.updatedAt) });
      expect(await repository.findById(env, b.id)).toMatchObject({ primary: true, priority: 2, updatedAt: later(b.updatedAt) });
      // What was read is no longer so: refused, nothing written.
      expect(await repository.rank(env, 'sms', expected, [{ ...changes[0], priority: 3 }])).toBe('stale');
      expect((await repository.findById(env, a.id))!.priority).toBe(1);
      // Not in another environment.
      expect(await repository.rank(otherEnvironment, 'sms', await channelOf(env), changes)).toBe('stale');
    });

    it('refuses when an integration joined or left the channel, or one was written since', async () => {
      const env: EnvironmentScope = { organizationId, environmentId: newId() };
      const a = sms({ priority: 1 }, env);
      await repository.insert(a);
      const expected = await channelOf(env);
      const change = [{ id: a.id, primary: true, priority: 1, updatedAt: later(a.updatedAt) }];
      const joined = sms({}, env);
      await repository.insert(joined);
      expect(await repository.rank(env, 'sms', expected, change)).toBe('stale');
      const withJoined = await channelOf(env);
      await repository.softDelete(env, joined.id, { deletedAt: new Date(), deletedBy: 'key' });
      expect(await repository.rank(env, 'sms', withJoined, change)).toBe('stale');
      const renamed = { ...a, name: 'Renamed', updatedAt: later(a.updatedAt) };
      expect(await repository.replace(env, renamed, a.updatedAt)).toBe('updated');
      expect(await repository.rank(env, 'sms', expected, change)).toBe('stale');
      expect(await repository.rank(env, 'sms', await channelOf(env), [{ ...change[0], updatedAt: later(renamed.updatedAt) }])).toBe('ranked');
    });

    it('never leaves two active integrations of a channel on one priority above 0', async () => {
      const env: EnvironmentScope = { organizationId, environmentId: newId() };
      const a = sms({ priority: 1 }, env);
      const b = sms({}, env);
      await repository.insert(a);
      await repository.insert(b);
      await repository.insert(sms({}, env)); // priority 0 is shared by any number
      await repository.insert(sms({ priority: 1, active: false }, env)); // inactive ones hold no priority
      await repository.insert(integration({ priority: 1 }, env)); // nor do other channels' ones
      expect(await repository.rank(env, 'sms', await channelOf(env), [{ id: b.id, primary: false, priority: 1, updatedAt: later(b.updatedAt) }])).toBe('stale');
      expect((await repository.findById(env, b.id))!.priority).toBe(0);
      await expect(repository.insert(sms({ priority: 1 }, env))).rejects.toBeInstanceOf(StoreRejectedError);
      await expect(repository.replace(env, { ...b, priority: 1, updatedAt: later(b.updatedAt) }, b.updatedAt)).rejects.toBeInstanceOf(StoreRejectedError);
    });

    it('lets one of several concurrent rankings made from the same read win', async () => {
      const env: EnvironmentScope = { organizationId, environmentId: newId() };
      const made = [sms({}, env), sms({}, env), sms({}, env)];
      for (const one of made) await repository.insert(one);
      const expected = await channelOf(env);
      const results = await Promise.all(
        made.map((one) => repository.rank(env, 'sms', expected, [{ id: one.id, primary: true, priority: 1, updatedAt: later(one.updatedAt) }])),
      );
      expect(results.filter((result) => result === 'ranked')).toHaveLength(1);
      expect((await channelOf(env)).filter((one) => one.priority === 1)).toHaveLength(1);
    });
  });

  it('soft-deletes once, hides the integration and frees its identifier', async () => {
    const created = integration();
    await repository.insert(created);
    const deletedAt = new Date(clock + 1000);
    expect(await repository.softDelete(otherEnvironment, created.id, { deletedAt, deletedBy: 'key' })).toBe(false);
    expect(await repository.softDelete(scope, created.id, { deletedAt, deletedBy: 'key-1' })).toBe(true);
    expect(await repository.softDelete(scope, created.id, { deletedAt, deletedBy: 'key-1' })).toBe(false);
    expect(await repository.findById(scope, created.id)).toBeNull();
    expect((await repository.list(scope)).map((i) => i.id)).not.toContain(created.id);
    expect((await repository.findActive(scope, {})).map((i) => i.id)).not.toContain(created.id);
    expect((await repository.listActiveInOrganization(organizationId)).map((i) => i.id)).not.toContain(created.id);
    expect(await repository.replace(scope, { ...created, name: 'x' }, created.updatedAt)).toBe('stale');
    expect(await repository.insert(integration({ identifier: created.identifier }))).toBe('inserted');
  });
}

describe.each(REPOSITORY_STORES)('IntegrationRepository on $name', (store) => {
  integrationRepositoryContract(openRepository(store, (r) => r.integrations));
});

/** An integration whose credentials must never be readable at rest. */
function secretIntegration(): Integration {
  const now = new Date();
  return {
    id: newId(),
    organizationId: newId(),
    environmentId: newId(),
    name: 'SendGrid',
    identifier: 'sendgrid',
    providerId: 'sendgrid',
    channel: 'email',
    credentials: { apiKey: 'SG.super-secret-key', from: 'no-reply@example.com' },
    configurations: {},
    active: true,
    primary: false,
    priority: 0,
    conditions: [],
    fallbacks: [],
    deleted: false,
    createdAt: now,
    updatedAt: now,
  };
}

// Per store: it reads the raw column (document) to see what is at rest; the memory store holds nothing at rest.
describe.each(SQL_STORES)('IntegrationRepository on $name, credentials at rest (SQL only)', (store) => {
  it('holds credentials encrypted at rest', async () => {
    const sql = await store.open();
    try {
      const repository = new SqlIntegrationRepository(sql, new AesGcmCredentialCipher(randomBytes(32)));
      const created = secretIntegration();
      await repository.insert(created);
      const [row] = await sql.query<{ credentials: string }>('SELECT credentials FROM integrations WHERE id = $1', [created.id]);
      expect(row.credentials).not.toContain('SG.super-secret-key');
      expect(row.credentials).not.toContain('no-reply@example.com');
    } finally {
      await sql.close();
    }
  });
});

describeMongoContract('IntegrationRepository', (store) => integrationRepositoryContract(openRepository(store, (r) => r.integrations)));

describeMongoContract('IntegrationRepository, credentials at rest,', () => {
  it('holds credentials encrypted at rest', async () => {
    const { store, repositories, close } = await openMongoContractStore();
    try {
      const created = secretIntegration();
      await repositories.integrations.insert(created);
      const doc = await store.collection(COLLECTIONS.integrations).findOne({ _id: created.id });
      expect(JSON.stringify(doc)).not.toContain('SG.super-secret-key');
      expect(JSON.stringify(doc)).not.toContain('no-reply@example.com');
    } finally {
      await close();
    }
  });
});
