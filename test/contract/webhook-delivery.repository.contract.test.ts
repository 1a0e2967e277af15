import { EnvironmentScope, newId } from '@app/kernel';
import { WebhookAttempt, WebhookDelivery, WebhookDeliveryRepository } from '@app/webhooks';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';

/** The WebhookDeliveryRepository contract (outbox and attempts log); every store adapter must pass it. */
function webhookDeliveryRepositoryContract(open: () => Promise<{ repository: WebhookDeliveryRepository; close(): Promise<void> }>) {
  let repository: WebhookDeliveryRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  const scope = (): EnvironmentScope => ({ organizationId: newId(), environmentId: newId() });
  const t0 = new Date('2025-01-01T00:00:00.000Z');
  const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
  const delivery = (s: EnvironmentScope, extra: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
    id: `msg_${newId()}`,
    ...s,
    endpointId: newId(),
    eventType: 'message.sent',
    body: '{"type":"message.sent"}',
    status: 'pending',
    attempts: 0,
    nextAttemptAt: t0,
    createdAt: t0,
    updatedAt: t0,
    ...extra,
  });
  const attempt = (d: WebhookDelivery, extra: Partial<WebhookAttempt> = {}): WebhookAttempt => ({
    id: newId(),
    organizationId: d.organizationId,
    environmentId: d.environmentId,
    endpointId: d.endpointId,
    deliveryId: d.id,
    eventType: d.eventType,
    attempt: 1,
    success: false,
    createdAt: t0,
    ...extra,
  });

  it('inserts only new rows and answers their ids (a republished event adds nothing)', async () => {
    const s = scope();
    const a = delivery(s);
    const b = delivery(s, { url: 'https://example.com/reply', eventType: 'reply.received' });
    expect(await repository.insertMany([a])).toEqual([a.id]);
    expect(await repository.insertMany([a, b])).toEqual([b.id]);
    expect(await repository.insertMany([])).toEqual([]);
    expect(await repository.findById(a.id)).toEqual(a);
    expect(await repository.findById(b.id)).toEqual(b);
    expect(await repository.findById('msg_nope')).toBeNull();
  });

  it('records each attempt once, in order (compare-and-set on the attempts made)', async () => {
    const d = delivery(scope());
    await repository.insertMany([d]);
    expect(await repository.recordAttempt(d.id, 2, { status: 'pending', nextAttemptAt: at(5) }, at(1))).toBe(false);
    expect(await repository.recordAttempt(d.id, 1, { status: 'pending', nextAttemptAt: at(5) }, at(1))).toBe(true);
    expect(await repository.recordAttempt(d.id, 1, { status: 'pending', nextAttemptAt: at(9) }, at(1))).toBe(false);
    expect(await repository.findById(d.id)).toEqual({ ...d, attempts: 1, nextAttemptAt: at(5), updatedAt: at(1) });
    expect(await repository.recordAttempt(d.id, 2, { status: 'delivered' }, at(6))).toBe(true);
    const done = await repository.findById(d.id);
    expect(done).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(done).not.toHaveProperty('nextAttemptAt');
    expect(await repository.recordAttempt(d.id, 3, { status: 'failed' }, at(7))).toBe(false);
  });

  it('finds pending rows overdue before a time, oldest first; drops a pending row', async () => {
    const s = scope();
    const late = delivery(s, { nextAttemptAt: at(-100) });
    const later = delivery(s, { nextAttemptAt: at(-50) });
    const due = delivery(s, { nextAttemptAt: at(100) });
    const ended = delivery(s, { nextAttemptAt: at(-200), status: 'delivered' });
    await repository.insertMany([later, late, due, ended]);
    const overdue = (await repository.findOverdue(at(0), 1000)).filter((d) => d.environmentId === s.environmentId);
    expect(overdue.map((d) => d.id)).toEqual([late.id, later.id]);
    await repository.drop(late.id, at(1));
    expect(await repository.findById(late.id)).toMatchObject({ status: 'dropped' });
    expect((await repository.findOverdue(at(0), 1000)).map((d) => d.id)).not.toContain(late.id);
  });

  it("lists an endpoint's attempts newest first, page by page, and tells whether one succeeded since a time", async () => {
    const s = scope();
    const d = delivery(s);
    const rows = [
      attempt(d, { attempt: 1, statusCode: 500, latencyMs: 12, error: 'The endpoint answered 500', responseExcerpt: 'oops', createdAt: at(1) }),
      attempt(d, { attempt: 2, error: 'connect ECONNREFUSED', createdAt: at(2) }),
      attempt(d, { attempt: 3, statusCode: 204, latencyMs: 3, success: true, createdAt: at(3) }),
    ];
    for (const row of rows) await repository.appendAttempt(row);
    await repository.appendAttempt(rows[0]); // a repeat is harmless
    const first = await repository.listAttempts(s, d.endpointId, { page: 0, limit: 2 });
    expect(first).toEqual({ items: [rows[2], rows[1]], hasMore: true });
    expect(first.items[1]).not.toHaveProperty('statusCode');
    expect(await repository.listAttempts(s, d.endpointId, { page: 1, limit: 2 })).toEqual({ items: [rows[0]], hasMore: false });
    expect(await repository.listAttempts(scope(), d.endpointId, { page: 0, limit: 2 })).toEqual({ items: [], hasMore: false });
    expect(await repository.succeededSince(d.endpointId, at(3))).toBe(true);
    expect(await repository.succeededSince(d.endpointId, at(4))).toBe(false);
  });

  it('retention deletes ended deliveries and log entries older than a time, oldest first, in batches; never a pending delivery', async () => {
    const s = scope();
    const old = new Date('2000-01-01T00:00:00.000Z');
    const ended = delivery(s, { status: 'delivered', createdAt: old });
    const pending = delivery(s, { createdAt: old });
    const recent = delivery(s, { status: 'failed', createdAt: new Date('2001-01-02T00:00:00.000Z') });
    await repository.insertMany([ended, pending, recent]);
    const entry = attempt(ended, { createdAt: old });
    await repository.appendAttempt(entry);
    const cutoff = new Date('2001-01-01T00:00:00.000Z');
    let deleted = 0;
    for (let batch = 0; batch < 100; batch++) {
      const count = await repository.deleteOlderThan(cutoff, 1);
      deleted += count;
      if (count === 0) break;
    }
    expect(deleted).toBeGreaterThanOrEqual(2);
    expect(await repository.findById(ended.id)).toBeNull();
    expect(await repository.findById(pending.id)).not.toBeNull();
    expect(await repository.findById(recent.id)).not.toBeNull();
    expect((await repository.listAttempts(s, ended.endpointId, { page: 0, limit: 10 })).items).toEqual([]);
    expect(await repository.deleteOlderThan(cutoff, 0)).toBe(0);
  });
}

for (const store of REPOSITORY_STORES) {
  describe(`WebhookDeliveryRepository on ${store.name}`, () => webhookDeliveryRepositoryContract(openRepository(store, (r) => r.webhookDeliveries)));
}
describeMongoContract('WebhookDeliveryRepository', (store) => webhookDeliveryRepositoryContract(openRepository(store, (r) => r.webhookDeliveries)));
