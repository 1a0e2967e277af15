import { DeliveryEventRecord, DeliveryEventRepository, Suppression, SuppressionRepository } from '@app/delivery';
import { deterministicId, newId } from '@app/kernel';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';
import { newScope, tick } from './delivery-fixtures';

function record(overrides: Partial<DeliveryEventRecord> = {}): DeliveryEventRecord {
  const scope = newScope();
  const integrationId = overrides.integrationId ?? newId();
  const eventKey = overrides.eventKey ?? newId();
  return {
    id: deterministicId(integrationId, eventKey),
    ...scope,
    integrationId,
    eventKey,
    messageId: newId(),
    type: 'delivered',
    occurredAt: tick(),
    createdAt: tick(),
    ...overrides,
  };
}

/** The DeliveryEventRepository contract: a vendor event is recorded once per integration. */
function deliveryEventRepositoryContract(open: () => Promise<{ repository: DeliveryEventRepository; close(): Promise<void> }>) {
  let repository: DeliveryEventRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  it('records an event once per integration and key, even when raced', async () => {
    const first = record();
    const results = await Promise.all([1, 2, 3].map(() => repository.insertIfAbsent(first)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await repository.insertIfAbsent({ ...first, id: newId(), type: 'opened' })).toBe(false);
    expect(await repository.exists(first.integrationId, first.eventKey)).toBe(true);
    expect(await repository.exists(newId(), first.eventKey)).toBe(false);
    // the same vendor key under another integration is another event
    expect(await repository.insertIfAbsent(record({ eventKey: first.eventKey }))).toBe(true);
  });

  it("lists a message's events by the time they happened", async () => {
    const messageId = newId();
    const later = record({ messageId, type: 'opened', occurredAt: tick() });
    const earlier = record({ messageId, type: 'delivered', occurredAt: new Date(later.occurredAt.getTime() - 5000) });
    await repository.insertIfAbsent(later);
    await repository.insertIfAbsent(earlier);
    expect(await repository.listByMessage(messageId)).toEqual([earlier, later]);
    expect(await repository.listByMessage(newId())).toEqual([]);
  });

  it('deletes the oldest records before a time, at most `limit`', async () => {
    const old = [record({ createdAt: new Date(1000) }), record({ createdAt: new Date(2000) })];
    for (const r of old) await repository.insertIfAbsent(r);
    expect(await repository.deleteOlderThan(new Date(3000), 1)).toBe(1);
    expect(await repository.exists(old[0].integrationId, old[0].eventKey)).toBe(false);
    expect(await repository.exists(old[1].integrationId, old[1].eventKey)).toBe(true);
    // its key is free again once the record is gone
    expect(await repository.insertIfAbsent({ ...old[0], createdAt: tick() })).toBe(true);
  });
}

function suppression(scope = newScope(), overrides: Partial<Suppression> = {}): Suppression {
  return {
    ...scope,
    address: `${newId()}@example.com`,
    channel: 'email',
    reason: 'hard_bounce',
    providerId: 'sendgrid',
    messageId: newId(),
    createdAt: tick(),
    ...overrides,
  };
}

/** The SuppressionRepository contract: one suppression per environment and address. */
function suppressionRepositoryContract(open: () => Promise<{ repository: SuppressionRepository; close(): Promise<void> }>) {
  let repository: SuppressionRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  it('keeps the first suppression of an address and reads it back whole', async () => {
    const scope = newScope();
    const first = suppression(scope, { detail: '550 unknown user' });
    const raced = await Promise.all([1, 2].map(() => repository.insertIfAbsent(first)));
    expect(raced.filter(Boolean)).toHaveLength(1);
    expect(await repository.insertIfAbsent({ ...first, reason: 'spam_report', createdAt: tick() })).toBe(false);
    expect(await repository.find(scope, first.address)).toEqual(first);
    const bare = suppression(scope, { channel: 'sms', address: '+15555550100' });
    await repository.insertIfAbsent(bare);
    expect(await repository.find(scope, bare.address)).toEqual(bare);
    expect(await repository.find(scope, bare.address)).not.toHaveProperty('detail');
  });

  it('answers lookups made together each with its own address, of its own environment', async () => {
    const scope = newScope();
    const other = newScope();
    const [kept, elsewhere] = [suppression(scope), suppression(other)];
    await repository.insertIfAbsent(kept);
    await repository.insertIfAbsent(elsewhere);
    const found = await Promise.all([
      repository.find(scope, kept.address),
      repository.find(scope, elsewhere.address),
      repository.find(other, elsewhere.address),
      repository.find(other, kept.address),
      repository.find(scope, 'nobody@example.com'),
    ]);
    expect(found).toEqual([kept, null, elsewhere, null, null]);
  });

  it('lists newest first, page by page, and lifts one', async () => {
    const scope = newScope();
    const rows = [suppression(scope), suppression(scope), suppression(scope)];
    for (const row of rows) await repository.insertIfAbsent(row);
    expect(await repository.list(scope, { page: 0, limit: 2 })).toEqual({ items: [rows[2], rows[1]], totalCount: 3 });
    expect(await repository.list(scope, { page: 1, limit: 2 })).toEqual({ items: [rows[0]], totalCount: 3 });
    expect(await repository.delete(scope, rows[1].address)).toBe(true);
    expect(await repository.delete(scope, rows[1].address)).toBe(false);
    expect(await repository.find(scope, rows[1].address)).toBeNull();
    expect((await repository.list(scope, { page: 0, limit: 10 })).totalCount).toBe(2);
  });

  it('never shows or lifts another environment’s suppression', async () => {
    const scope = newScope();
    const row = suppression(scope);
    await repository.insertIfAbsent(row);
    const other = newScope();
    expect(await repository.find(other, row.address)).toBeNull();
    expect(await repository.find({ ...scope, organizationId: other.organizationId }, row.address)).toBeNull();
    expect(await repository.list(other, { page: 0, limit: 10 })).toEqual({ items: [], totalCount: 0 });
    expect(await repository.delete(other, row.address)).toBe(false);
    expect(await repository.insertIfAbsent({ ...row, ...other })).toBe(true);
    expect(await repository.find(scope, row.address)).toEqual(row);
  });
}

describe.each(REPOSITORY_STORES)('DeliveryEventRepository on $name', (store) => {
  deliveryEventRepositoryContract(openRepository(store, (r) => r.deliveryEvents));
});

describe.each(REPOSITORY_STORES)('SuppressionRepository on $name', (store) => {
  suppressionRepositoryContract(openRepository(store, (r) => r.suppressions));
});

describeMongoContract('DeliveryEventRepository', (store) => deliveryEventRepositoryContract(openRepository(store, (r) => r.deliveryEvents)));
describeMongoContract('SuppressionRepository', (store) => suppressionRepositoryContract(openRepository(store, (r) => r.suppressions)));
