import { Test } from '@nestjs/testing';
import { JOB_REPOSITORY, SUPPRESSION_REPOSITORY, TRIGGER_REPOSITORY } from '@app/delivery';
import { SUBSCRIBER_REPOSITORY } from '@app/subscribers';
import { Clock, IDEMPOTENCY_STORE } from '@app/kernel';
import { TRANSLATION_REPOSITORY } from '@app/workflows';
import { createMemoryStore } from '.';
import { jobChain, newScope, notification, triggerRecord } from '../../contract/delivery-fixtures';

/** The memory store as a whole; each repository's behaviour is held by its contract suite (test/contract). */
describe('createMemoryStore', () => {
  it('binds every repository to its port token for Nest testing modules', async () => {
    const store = createMemoryStore();
    const moduleRef = await Test.createTestingModule({ providers: store.providers }).compile();
    expect(moduleRef.get(SUBSCRIBER_REPOSITORY)).toBe(store.subscribers);
    expect(moduleRef.get(JOB_REPOSITORY)).toBe(store.jobs);
    expect(moduleRef.get(TRIGGER_REPOSITORY)).toBe(store.triggers);
    expect(moduleRef.get(IDEMPOTENCY_STORE)).toBe(store.idempotency);
    expect(moduleRef.get(SUPPRESSION_REPOSITORY)).toBe(store.suppressions);
    expect(moduleRef.get(TRANSLATION_REPOSITORY)).toBe(store.translations);
    expect(store.providers).toHaveLength(27);
  });

  it('shares the delivery records between the notification, job, message and detail repositories', async () => {
    const store = createMemoryStore();
    const scope = newScope();
    const n = notification(scope);
    const [first, second] = jobChain(n, ['in_app', 'chat']);
    await store.chains.write([{ kind: 'new', notification: n, jobs: [{ ...first, status: 'completed' }, second], messages: [], details: [] }]);
    expect(await store.jobs.findChain(first.id)).toMatchObject([{ id: first.id }, { id: second.id, status: 'pending' }]);
    expect(await store.notifications.deleteOlderThan(new Date('2100-01-01'), 10)).toBe(0); // its last job is unfinished
    const completed = { job: { ...second, status: 'completed' as const }, from: 'pending' as const };
    await store.chains.write([{ kind: 'changes', notificationId: n.id, lead: completed, moves: [], messages: [], deliveries: [], details: [] }]);
    expect(await store.notifications.deleteOlderThan(new Date('2100-01-01'), 10)).toBe(1);
  });

  it("takes the store's own times from the clock it is given", async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const clock: Clock = { now: () => new Date(now) };
    const store = createMemoryStore({ clock });
    const record = triggerRecord(newScope());
    await store.triggers.insertIfAbsent(record);
    await store.triggers.markStatus(record.id, ['accepted'], 'processed');
    expect(await store.triggers.findById(record.id)).toMatchObject({ updatedAt: now });

    expect(await store.idempotency.claim('key', 'hash', 60)).toBeNull();
    now = new Date(now.getTime() + 59_000);
    expect(await store.idempotency.claim('key', 'other', 60)).toEqual({ state: 'in_progress', bodyHash: 'hash' });
    now = new Date(now.getTime() + 2_000);
    expect(await store.idempotency.claim('key', 'other', 60)).toBeNull();
  });
});
