/**
 * Contexts through Novu's official SDK, `@novu/api` (each response validated by its zod schemas):
 * create, list, retrieve, update and delete, and the trigger's `context` — the contexts it names are
 * created or updated, its notifications record them (the activity feed's `contextKeys`), and the
 * subscriber's notifications are filtered by them. Embedded (PGlite) and PostgreSQL + Redis.
 */
import { Novu } from '@novu/api';
import { AddressInfo } from 'node:net';
import { sdk, sdkFails } from '../support/novu-api';
import { TestApp, TestAppOptions, startTestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const MODES: [string, TestAppOptions][] = [
  ['embedded PGlite', { store: 'pglite' }],
  ['PostgreSQL + Redis', { store: 'postgres', redis: true }],
];

describe.each(MODES)('@novu/api contexts (%s)', (_mode, options) => {
  let t: TestApp;
  let novu: Novu;

  beforeAll(async () => {
    t = await startTestApp(options);
    await t.app.listen(0, '127.0.0.1');
    const baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    novu = new Novu({ secretKey: t.apiKey, serverURL: baseUrl, retryConfig: { strategy: 'none' } });
  });
  afterAll(() => t?.close());

  it('create: by type and id, with data; the same again is 409, a malformed one 422', async () => {
    const created = await sdk('contexts.create', () => novu.contexts.create({ type: 'tenant', id: 'acme', data: { name: 'Acme Corp', plan: 'pro' } }));
    expect(created.result).toMatchObject({ type: 'tenant', id: 'acme', data: { name: 'Acme Corp', plan: 'pro' } });
    expect(created.result.createdAt).toBe(created.result.updatedAt);
    const bare = await sdk('contexts.create without data', () => novu.contexts.create({ type: 'app', id: 'acme' }));
    expect(bare.result.data).toEqual({});
    expect(JSON.parse((await sdkFails('create it again', 409, () => novu.contexts.create({ type: 'tenant', id: 'acme' }))).body)).toMatchObject({
      code: 'context_exists',
      message: "Context with type 'tenant' and id 'acme' already exists",
    });
    const malformed = await sdkFails('create a malformed one', 422, () => novu.contexts.create({ type: 'Bad Type!', id: 'a b' }));
    expect(Object.keys(JSON.parse(malformed.body).errors).sort()).toEqual(['id', 'type']);
    await sdkFails('create with data over 64 KB', 422, () => novu.contexts.create({ type: 'tenant', id: 'big', data: { text: 'x'.repeat(70_000) } }));
  });

  it('retrieve and update: the data replaced; an unknown context is 404', async () => {
    expect((await sdk('contexts.retrieve', () => novu.contexts.retrieve('acme', 'tenant'))).result.data).toEqual({ name: 'Acme Corp', plan: 'pro' });
    const updated = await sdk('contexts.update', () =>
      novu.contexts.update({ type: 'tenant', id: 'acme', updateContextRequestDto: { data: { name: 'Acme Corporation' } } }),
    );
    expect(updated.result).toMatchObject({ type: 'tenant', id: 'acme', data: { name: 'Acme Corporation' } });
    await sdkFails('retrieve an unknown context', 404, () => novu.contexts.retrieve('nope', 'tenant'));
    await sdkFails('update an unknown context', 404, () => novu.contexts.update({ type: 'tenant', id: 'nope', updateContextRequestDto: { data: {} } }));
  });

  it('list: cursor pages, filtered by id and by a part of the key', async () => {
    await sdk('contexts.create', () => novu.contexts.create({ type: 'tenant', id: 'globex' }));
    const all = await sdk('contexts.list', () => novu.contexts.list({ orderDirection: 'ASC' }));
    expect(all.result.data.map((c) => `${c.type}:${c.id}`)).toEqual(['tenant:acme', 'app:acme', 'tenant:globex']);
    expect(all.result).toMatchObject({ totalCount: 3, totalCountCapped: false, next: null, previous: null });
    const first = await sdk('contexts.list page', () => novu.contexts.list({ limit: 2, orderDirection: 'ASC' }));
    expect(first.result.data).toHaveLength(2);
    const second = await sdk('contexts.list next page', () => novu.contexts.list({ limit: 2, orderDirection: 'ASC', after: first.result.next! }));
    expect(second.result.data.map((c) => c.id)).toEqual(['globex']);
    expect((await sdk('contexts.list id', () => novu.contexts.list({ id: 'acme' }))).result.data.map((c) => c.type).sort()).toEqual(['app', 'tenant']);
    expect((await sdk('contexts.list search', () => novu.contexts.list({ search: 'TENANT:' }))).result.totalCount).toBe(2);
  });

  it("a trigger's context: the contexts it names are created or take its data, its notification records them, and the feed is filtered by them", async () => {
    const workflowId = uniqueName('ctx').toLowerCase();
    const subscriberId = uniqueName('sub');
    await sdk('subscribers.create', () => novu.subscribers.create({ subscriberId }));
    await sdk('workflows.create', () =>
      novu.workflows.create({
        name: 'Context',
        workflowId,
        active: true,
        steps: [{ name: 'In-app', type: 'in_app', controlValues: { body: 'For {{ context.tenant.data.name }} on {{ context.app.id }}' } }],
      }),
    );
    const trigger = (context: Record<string, string | { id: string; data?: Record<string, unknown> }> | undefined) =>
      sdk('trigger', () => novu.trigger({ workflowId, to: subscriberId, payload: {}, ...(context ? { context } : {}) }));
    const within = await trigger({ tenant: 'acme', app: { id: 'jira', data: { installed: true } } });
    await trigger({ tenant: 'globex' });
    await trigger(undefined);

    expect((await sdk('contexts.retrieve created by the trigger', () => novu.contexts.retrieve('jira', 'app'))).result.data).toEqual({ installed: true });
    const page = await waitFor(async () => {
      const found = await sdk('notifications.list', () => novu.notifications.list({ transactionId: within.result.transactionId! }));
      return found.result.data.length ? found.result : undefined;
    });
    expect(page.data[0].contextKeys).toEqual(['app:jira', 'tenant:acme']);

    const listed = (contextKeys?: string[]) =>
      waitFor(async () => {
        const found = await sdk('subscribers.notifications.list', () =>
          novu.subscribers.notifications.list({ subscriberId, limit: 10, ...(contextKeys ? { contextKeys } : {}) }),
        );
        return found.result.data.length >= (contextKeys ? 1 : 3) ? found.result.data : undefined;
      });
    expect((await listed()).length).toBe(3);
    const [acme] = await listed(['tenant:acme', 'app:jira']);
    expect(acme.body).toBe('For Acme Corporation on jira');
    expect((await sdk('list another set', () => novu.subscribers.notifications.list({ subscriberId, contextKeys: ['tenant:acme'] }))).result.data).toEqual([]);
    const counts = await sdk('subscribers.notifications.count', () =>
      novu.subscribers.notifications.count(subscriberId, JSON.stringify([{ contextKeys: ['tenant:globex'] }, {}])),
    );
    expect(counts.result.map((c) => c.count)).toEqual([1, 3]);
    await sdk('archiveAll within a context', () => novu.subscribers.notifications.archiveAll({ contextKeys: ['tenant:globex'] }, subscriberId));
    expect((await sdk('archived', () => novu.subscribers.notifications.list({ subscriberId, archived: true }))).result.data).toHaveLength(1);
  });

  it('delete: 204, then 404', async () => {
    await sdk('contexts.delete', () => novu.contexts.delete('globex', 'tenant'));
    await sdkFails('retrieve a deleted context', 404, () => novu.contexts.retrieve('globex', 'tenant'));
    await sdkFails('delete it again', 404, () => novu.contexts.delete('globex', 'tenant'));
  });
});
