import { TriggerRepository, TriggerStatus } from '@app/delivery';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';
import { newScope, tick, triggerRecord } from './delivery-fixtures';

/** The TriggerRepository contract; every store adapter must pass it. */
function triggerRepositoryContract(open: () => Promise<{ repository: TriggerRepository; close(): Promise<void> }>) {
  let repository: TriggerRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  it('stores a trigger and reads it back whole, by id and by transactionId', async () => {
    const scope = newScope();
    const record = triggerRecord(scope, {
      actor: { subscriberId: 'actor-1', avatar: 'https://a' },
      tenant: 'acme',
      contextKeys: ['app:jira', 'tenant:acme'],
      fanOutJobId: 'job-of-the-batch',
    });
    expect(await repository.insertIfAbsent(record)).toBe(true);
    expect(await repository.findById(record.id)).toEqual(record);
    expect(await repository.findByTransactionId(scope, record.transactionId)).toEqual(record);
    expect(await repository.findById('000000000000000000000000')).toBeNull();
  });

  it('keeps the broadcast mark of a trigger to every subscriber', async () => {
    const scope = newScope();
    const record = triggerRecord(scope, { to: [], broadcast: true });
    await repository.insertIfAbsent(record);
    expect(await repository.findById(record.id)).toEqual(record);
  });

  it('keeps the mark of a trigger whose fan-out derives time-ordered ids (a resumed fan-out must derive the same ones)', async () => {
    const scope = newScope();
    const record = triggerRecord(scope, { timeOrderedIds: true });
    await repository.insertIfAbsent(record);
    expect(await repository.findById(record.id)).toEqual(record);
  });

  it('leaves optional fields out', async () => {
    const scope = newScope();
    const record = triggerRecord(scope);
    await repository.insertIfAbsent(record);
    const found = await repository.findById(record.id);
    expect(found).not.toHaveProperty('actor');
    expect(found).not.toHaveProperty('tenant');
    expect(found).not.toHaveProperty('contextKeys');
    expect(found).not.toHaveProperty('fanOutJobId');
    expect(found).not.toHaveProperty('broadcast');
    expect(found).not.toHaveProperty('timeOrderedIds');
  });

  it('refuses a repeated transactionId in the environment, even from concurrent callers, but not in another one', async () => {
    const scope = newScope();
    const first = triggerRecord(scope);
    const repeats = [1, 2, 3, 4].map(() => triggerRecord(scope, { transactionId: first.transactionId }));
    const inserted = await Promise.all([first, ...repeats].map((r) => repository.insertIfAbsent(r)));
    expect(inserted.filter(Boolean)).toHaveLength(1);
    expect(await repository.insertIfAbsent(triggerRecord(newScope(), { transactionId: first.transactionId }))).toBe(true);
  });

  it('moves the status by compare-and-set only', async () => {
    const scope = newScope();
    const record = triggerRecord(scope);
    await repository.insertIfAbsent(record);
    const at = tick();
    const moves = await Promise.all([1, 2, 3].map(() => repository.markStatus(record.id, ['accepted'], 'processed', at)));
    expect(moves.filter(Boolean)).toHaveLength(1);
    expect(await repository.markStatus(record.id, ['accepted'], 'failed')).toBe(false);
    expect(await repository.findById(record.id)).toMatchObject({ status: 'processed', updatedAt: at });
    expect(await repository.markStatus(record.id, ['accepted', 'processed'], 'canceled')).toBe(true);
    expect(await repository.markStatus(record.id, [], 'failed')).toBe(false);
    expect(await repository.markStatus('000000000000000000000000', ['accepted'], 'processed')).toBe(false);
  });

  it('finds stale accepted triggers, oldest first, for the reconciler', async () => {
    const scope = newScope();
    const old = [triggerRecord(scope), triggerRecord(scope), triggerRecord(scope)];
    const processed = triggerRecord(scope, { status: 'processed' });
    const cutoff = tick();
    const fresh = triggerRecord(scope);
    for (const r of [...old, processed, fresh]) await repository.insertIfAbsent(r);
    const stale = (await repository.findStaleAccepted(cutoff, 1000)).filter((r) => r.environmentId === scope.environmentId);
    expect(stale.map((r) => r.id)).toEqual(old.map((r) => r.id));
    const limited = await repository.findStaleAccepted(cutoff, 1);
    expect(limited).toHaveLength(1);
    await repository.markStatus(old[0].id, ['accepted'], 'processed');
    expect((await repository.findStaleAccepted(cutoff, 1000)).map((r) => r.id)).not.toContain(old[0].id);
    // failed and canceled ones are not picked up either; a duplicate transactionId adds nothing
    expect(await repository.insertIfAbsent({ ...triggerRecord(scope), transactionId: old[1].transactionId })).toBe(false);
    await repository.markStatus(old[1].id, ['accepted'], 'failed');
    expect(await repository.cancel(scope, old[2].transactionId)).toBe(true);
    expect((await repository.findStaleAccepted(cutoff, 1000)).filter((r) => r.environmentId === scope.environmentId)).toEqual([]);
    // one moved back to accepted is picked up again
    expect(await repository.markStatus(old[1].id, ['failed'], 'accepted')).toBe(true);
    expect((await repository.findStaleAccepted(cutoff, 1000)).filter((r) => r.environmentId === scope.environmentId).map((r) => r.id)).toEqual([old[1].id]);
  });

  it('cancels a trigger once, within its environment only', async () => {
    const scope = newScope();
    const record = triggerRecord(scope, { status: 'processed' });
    await repository.insertIfAbsent(record);
    expect(await repository.cancel(newScope(), record.transactionId)).toBe(false);
    expect(await repository.cancel({ ...scope, organizationId: newScope().organizationId }, record.transactionId)).toBe(false);
    expect(await repository.cancel(scope, record.transactionId)).toBe(true);
    expect(await repository.cancel(scope, record.transactionId)).toBe(false);
    expect(await repository.cancel(scope, 'unknown')).toBe(false);
    expect(await repository.findByTransactionId(scope, record.transactionId)).toMatchObject({ status: 'canceled' });
    // a canceled trigger is not picked up again by a fan-out
    expect(await repository.markStatus(record.id, ['accepted'], 'processed')).toBe(false);
  });

  /** A purge deletes across environments, so it runs on a store of its own. */
  describe('retention: deleteOlderThan', () => {
    let store: { repository: TriggerRepository; close(): Promise<void> };
    beforeAll(async () => (store = await open()));
    afterAll(() => store.close());

    it('deletes old triggers whose fan-out is over, keeps those not fanned out yet, and frees their transactionIds', async () => {
      const cutoff = new Date('2001-01-01T00:00:00Z');
      const old = (status: TriggerStatus, day: number) => {
        const at = new Date(Date.UTC(2000, 5, day));
        return triggerRecord(newScope(), { status, createdAt: at, updatedAt: at });
      };
      const over = [old('processed', 1), old('canceled', 2), old('failed', 3)];
      const waiting = [old('accepted', 4), old('accepted', 5)];
      const young = triggerRecord(newScope(), { status: 'processed', createdAt: new Date('2001-02-01T00:00:00Z') });
      for (const r of [...over, ...waiting, young]) expect(await store.repository.insertIfAbsent(r)).toBe(true);

      expect(await store.repository.deleteOlderThan(cutoff, 2)).toBe(2);
      expect(await store.repository.findById(over[0].id)).toBeNull();
      expect(await store.repository.findById(over[1].id)).toBeNull();
      expect(await store.repository.findById(over[2].id)).not.toBeNull();
      expect(await store.repository.deleteOlderThan(cutoff, 0)).toBe(0);
      expect(await store.repository.deleteOlderThan(cutoff, 100)).toBe(1);
      expect(await store.repository.deleteOlderThan(cutoff, 100)).toBe(0);
      for (const r of [...waiting, young]) expect(await store.repository.findById(r.id)).toEqual(r);
      const { organizationId, environmentId, transactionId } = over[0];
      expect(await store.repository.insertIfAbsent(triggerRecord({ organizationId, environmentId }, { transactionId }))).toBe(true);
    });
  });

  it('never shows a trigger to another environment', async () => {
    const scope = newScope();
    const record = triggerRecord(scope);
    await repository.insertIfAbsent(record);
    expect(await repository.findByTransactionId(newScope(), record.transactionId)).toBeNull();
    expect(await repository.findByTransactionId({ ...scope, organizationId: newScope().organizationId }, record.transactionId)).toBeNull();
  });
}

describe.each(REPOSITORY_STORES)('TriggerRepository on $name', (store) => {
  triggerRepositoryContract(openRepository(store, (r) => r.triggers));
});

describeMongoContract('TriggerRepository', (store) => triggerRepositoryContract(openRepository(store, (r) => r.triggers)));
