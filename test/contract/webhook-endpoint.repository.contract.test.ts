import { EnvironmentScope, newId } from '@app/kernel';
import { WebhookEndpoint, WebhookEndpointRepository } from '@app/webhooks';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';

/** The WebhookEndpointRepository contract; every store adapter must pass it. */
function webhookEndpointRepositoryContract(open: () => Promise<{ repository: WebhookEndpointRepository; close(): Promise<void> }>) {
  let repository: WebhookEndpointRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  const organizationId = newId();
  const scope = (): EnvironmentScope => ({ organizationId, environmentId: newId() });
  let clock = Date.parse('2025-01-01T00:00:00.000Z');
  const endpoint = (s: EnvironmentScope, extra: Partial<WebhookEndpoint> = {}): WebhookEndpoint => {
    const at = new Date((clock += 1000));
    return {
      id: newId(),
      ...s,
      kind: 'endpoint',
      url: 'https://example.com/hook',
      disabled: false,
      secrets: [{ secret: 'whsec_abc' }],
      createdAt: at,
      updatedAt: at,
      ...extra,
    };
  };

  it('stores and finds an endpoint within its environment, optional fields absent rather than null', async () => {
    const s = scope();
    const bare = endpoint(s);
    const full = endpoint(s, {
      description: 'orders',
      eventTypes: ['message.sent', 'workflow.created'],
      secrets: [{ secret: 'whsec_new' }, { secret: 'whsec_old', expiresAt: new Date('2025-01-02T00:00:00.000Z') }],
    });
    await repository.insert(bare);
    await repository.insert(full);
    expect(await repository.findById(s, bare.id)).toEqual(bare);
    expect(await repository.findById(s, full.id)).toEqual(full);
    const found = await repository.findById(s, bare.id);
    expect(found).not.toHaveProperty('description');
    expect(found).not.toHaveProperty('eventTypes');
    expect(await repository.findById(scope(), bare.id)).toBeNull();
  });

  it('lists endpoints page by page, oldest first; enabled ones for publishing; the reply-callback signer in neither', async () => {
    const s = scope();
    const rows = [endpoint(s), endpoint(s, { disabled: true }), endpoint(s)];
    for (const row of rows) await repository.insert(row);
    await repository.ensureReplyCallback(endpoint(s, { kind: 'reply_callback', url: '' }));
    const first = await repository.list(s, { page: 0, limit: 2 });
    expect(first.items.map((e) => e.id)).toEqual([rows[0].id, rows[1].id]);
    expect(first.hasMore).toBe(true);
    const second = await repository.list(s, { page: 1, limit: 2 });
    expect(second).toEqual({ items: [rows[2]], hasMore: false });
    expect((await repository.listEnabled(s)).map((e) => e.id)).toEqual([rows[0].id, rows[2].id]);
  });

  it('keeps one reply-callback signer per environment: the first stays', async () => {
    const s = scope();
    const first = await repository.ensureReplyCallback(endpoint(s, { kind: 'reply_callback', url: '', secrets: [{ secret: 'whsec_first' }] }));
    const again = await repository.ensureReplyCallback(endpoint(s, { kind: 'reply_callback', url: '', secrets: [{ secret: 'whsec_second' }] }));
    expect(again).toEqual(first);
    expect(again.secrets).toEqual([{ secret: 'whsec_first' }]);
  });

  it('updates the fields given, null clearing optional ones; only in its environment; deletes', async () => {
    const s = scope();
    const row = endpoint(s, { description: 'd', eventTypes: ['message.sent'] });
    await repository.insert(row);
    const later = new Date('2026-01-01T00:00:00.000Z');
    const rotated = [{ secret: 'whsec_2' }, { secret: 'whsec_abc', expiresAt: new Date('2026-01-02T00:00:00.000Z') }];
    const updated = await repository.update(
      s,
      row.id,
      { url: 'https://example.org/x', description: null, eventTypes: null, disabled: true, disabledReason: 'failing', secrets: rotated },
      later,
    );
    expect(updated).toEqual({
      ...row,
      url: 'https://example.org/x',
      description: undefined,
      eventTypes: undefined,
      disabled: true,
      disabledReason: 'failing',
      secrets: rotated,
      updatedAt: later,
    });
    expect(updated).not.toHaveProperty('description');
    expect(await repository.findById(s, row.id)).toEqual(updated);
    expect(await repository.update(scope(), row.id, { disabled: false }, later)).toBeNull();
    const cleared = await repository.update(s, row.id, { disabled: false, disabledReason: null }, later);
    expect(cleared).not.toHaveProperty('disabledReason');
    expect(await repository.delete(scope(), row.id)).toBe(false);
    expect(await repository.delete(s, row.id)).toBe(true);
    expect(await repository.findById(s, row.id)).toBeNull();
    expect(await repository.delete(s, row.id)).toBe(false);
  });
}

for (const store of REPOSITORY_STORES) {
  describe(`WebhookEndpointRepository on ${store.name}`, () => webhookEndpointRepositoryContract(openRepository(store, (r) => r.webhookEndpoints)));
}
describeMongoContract('WebhookEndpointRepository', (store) => webhookEndpointRepositoryContract(openRepository(store, (r) => r.webhookEndpoints)));
