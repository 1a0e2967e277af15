/**
 * Environments and publishing between them through Novu's official SDK, `@novu/api` (each response
 * validated by its zod schemas): environments list/create/update/delete, diff, publish, getTags and
 * workflows.sync. Workflows are made in Development over /v1/workflows (plain HTTP), published to
 * Production, and triggered there with Production's own key. Embedded (PGlite) and PostgreSQL + Redis.
 */
import { Novu } from '@novu/api';
import { NovuError, ResponseValidationError } from '@novu/api/models/errors';
import { AddressInfo } from 'node:net';
import { TestApp, TestAppOptions, startTestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

async function sdk<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ResponseValidationError) throw new Error(`${what}: @novu/api rejected the response —\n${error.pretty()}\nraw body: ${error.body}`);
    if (error instanceof NovuError) throw new Error(`${what}: HTTP ${error.statusCode} ${error.body}`);
    throw error;
  }
}

async function sdkFails(what: string, status: number, call: () => Promise<unknown>): Promise<{ code?: string; message?: string }> {
  try {
    await call();
  } catch (error) {
    if (error instanceof ResponseValidationError) throw new Error(`${what}: @novu/api rejected the error body —\n${error.pretty()}\nraw body: ${error.body}`);
    if (error instanceof NovuError) {
      expect({ what, status: error.statusCode }).toEqual({ what, status });
      return JSON.parse(error.body);
    }
    throw error;
  }
  throw new Error(`${what}: expected HTTP ${status}, but the call succeeded`);
}

const MODES: [string, TestAppOptions][] = [
  ['embedded PGlite', { store: 'pglite' }],
  ['PostgreSQL + Redis', { store: 'postgres', redis: true }],
];

describe.each(MODES)('@novu/api environments and publishing (%s)', (_mode, options) => {
  let t: TestApp;
  let baseUrl: string;
  /** The bootstrap key: Development's. */
  let dev: Novu;
  let devId: string;
  let prod: Novu;
  let prodKey: string;
  let prodId: string;
  const identifier = uniqueName('welcome').toLowerCase();
  let devWorkflowId: string;

  const client = (secretKey: string) => new Novu({ secretKey, serverURL: baseUrl, retryConfig: { strategy: 'none' } });

  async function http(key: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: `ApiKey ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  const workflowsOf = async (key: string) =>
    (await http(key, 'GET', '/v1/workflows?limit=100')).body.data as { _id: string; triggers: { identifier: string }[]; updatedAt: string; name: string }[];

  beforeAll(async () => {
    t = await startTestApp(options);
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    dev = client(t.apiKey);
  });
  afterAll(() => t?.close());

  it('environments.list: the organization has Development (type dev)', async () => {
    const res = await sdk('environments.list', () => dev.environments.list());
    expect(res.result).toHaveLength(1);
    expect(res.result[0]).toMatchObject({ name: 'Development', type: 'dev' });
    devId = res.result[0].id;
  });

  it('environments.create: Production, with its key, its in-app integration and Development as its parent', async () => {
    const res = await sdk('environments.create', () => dev.environments.create({ name: 'Production', color: '#ff5722' }));
    expect(res.result).toMatchObject({ name: 'Production', type: 'prod', parentId: devId });
    expect(res.result.apiKeys).toHaveLength(1);
    prodKey = res.result.apiKeys![0].key;
    prodId = res.result.id;
    prod = client(prodKey);
    const integrations = await sdk('integrations.list (Production)', () => prod.integrations.list());
    expect(integrations.result.filter((i) => i.providerId === 'novu' && i.channel === 'in_app')).toHaveLength(1);
    expect((await sdk('environments.list', () => prod.environments.list())).result.map((e) => e.name).sort()).toEqual(['Development', 'Production']);
    await sdkFails('environments.create with a taken name', 409, () => dev.environments.create({ name: 'Production', color: '#000000' }));
  });

  it('a workflow made in Development is not in Production until published', async () => {
    const res = await http(t.apiKey, 'POST', '/v1/workflows', {
      name: 'Welcome',
      identifier,
      active: true,
      tags: ['onboarding'],
      steps: [{ name: 'In-app', template: { type: 'in_app', content: 'Hello {{payload.name}}' } }],
    });
    expect(res.status).toBe(201);
    devWorkflowId = res.body.data._id;
    expect(await workflowsOf(prodKey)).toEqual([]);
  });

  it('environments.diff shows the workflow and its step as added', async () => {
    const res = await sdk('environments.diff', () => dev.environments.diff({}, prodId));
    expect(res.result).toMatchObject({
      sourceEnvironmentId: devId,
      targetEnvironmentId: prodId,
      summary: { totalEntities: 1, totalChanges: 1, hasChanges: true },
    });
    const [resource] = res.result.resources;
    expect(resource.sourceResource).toMatchObject({ id: identifier, name: 'Welcome' });
    expect(resource.targetResource).toBeNull();
    expect(resource.changes.map((c) => [c.action, c.stepType])).toEqual([
      ['added', undefined],
      ['added', 'in_app'],
    ]);
    expect(resource.summary).toEqual({ added: 2, modified: 0, deleted: 0, unchanged: 0 });
  });

  it('a dry run reports what it would do and writes nothing', async () => {
    const res = await sdk('environments.publish dryRun', () => dev.environments.publish({ dryRun: true }, prodId));
    expect(res.result.summary).toEqual({ resources: 1, successful: 0, failed: 0, skipped: 1 });
    expect(res.result.results[0].skipped).toEqual([
      { resourceType: 'REGULAR', resourceId: identifier, resourceName: 'Welcome', reason: 'Dry run: would be created' },
    ]);
    expect(await workflowsOf(prodKey)).toEqual([]);
  });

  it('environments.publish copies it; a trigger in Production with its own key delivers', async () => {
    const res = await sdk('environments.publish', () => dev.environments.publish({}, prodId));
    expect(res.result.summary).toEqual({ resources: 1, successful: 1, failed: 0, skipped: 0 });
    expect(res.result.results[0].successful).toEqual([{ resourceType: 'REGULAR', resourceId: identifier, resourceName: 'Welcome', action: 'created' }]);
    const [copy] = await workflowsOf(prodKey);
    expect(copy.triggers[0].identifier).toBe(identifier);
    expect(copy._id).not.toBe(devWorkflowId);

    const subscriberId = uniqueName('prod-user');
    const triggered = await sdk('trigger (Production)', () => prod.trigger({ workflowId: identifier, to: subscriberId, payload: { name: 'Ada' } }));
    expect(triggered.result.acknowledged).toBe(true);
    // The subscriber exists (404 before) once the trigger's fan-out has run.
    const message = await waitFor(async () => (await http(prodKey, 'GET', `/v1/messages?subscriberId=${subscriberId}&channel=in_app`)).body.data?.[0]);
    expect(message).toMatchObject({ content: 'Hello Ada', templateIdentifier: identifier });
    // The trigger ran in Production only: Development has no such subscriber.
    expect((await http(t.apiKey, 'GET', `/v1/messages?subscriberId=${subscriberId}`)).body.code).toBe('subscriber_not_found');
  });

  it('a second publish changes nothing and writes nothing', async () => {
    const before = await workflowsOf(prodKey);
    const diff = await sdk('environments.diff', () => dev.environments.diff({ sourceEnvironmentId: devId }, prodId));
    expect(diff.result.summary).toEqual({ totalEntities: 1, totalChanges: 0, hasChanges: false });
    expect(diff.result.resources[0].changes.map((c) => c.action)).toEqual(['unchanged']);
    const res = await sdk('environments.publish again', () => dev.environments.publish({}, prodId));
    expect(res.result.summary).toEqual({ resources: 1, successful: 0, failed: 0, skipped: 1 });
    expect(res.result.results[0].skipped[0].reason).toBe('No changes');
    expect(await workflowsOf(prodKey)).toEqual(before);
  });

  it('a change in Development shows as modified, step by step, and publishing replaces the copy', async () => {
    const current = (await http(t.apiKey, 'GET', `/v1/workflows/${devWorkflowId}`)).body.data;
    const steps = [
      { _id: current.steps[0]._id, name: 'In-app', template: { type: 'in_app', content: 'Welcome {{payload.name}}' } },
      { name: 'Wait', template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'seconds' } },
    ];
    expect((await http(t.apiKey, 'PUT', `/v1/workflows/${devWorkflowId}`, { description: 'Say hello', steps })).status).toBe(200);

    const diff = await sdk('environments.diff', () => dev.environments.diff({}, prodId));
    const [resource] = diff.result.resources;
    expect(resource.summary).toEqual({ added: 0, modified: 1, deleted: 0, unchanged: 0 });
    expect(resource.changes.map((c) => [c.action, c.stepType ?? null])).toEqual([
      ['modified', null],
      ['modified', 'in_app'],
      ['added', 'delay'],
    ]);
    expect(resource.changes[0].diffs).toEqual({ previous: { description: '' }, new: { description: 'Say hello' } });

    const res = await sdk('environments.publish', () => dev.environments.publish({}, prodId));
    expect(res.result.results[0].successful.map((s) => s.action)).toEqual(['updated']);
    const [copy] = await workflowsOf(prodKey);
    const published = (await http(prodKey, 'GET', `/v1/workflows/${copy._id}`)).body.data;
    expect(published).toMatchObject({ description: 'Say hello', steps: [{ _id: current.steps[0]._id }, { template: { type: 'delay' } }] });
  });

  it('environments.getTags lists the tags of the environment workflows', async () => {
    const res = await sdk('environments.getTags', () => dev.environments.getTags(prodId));
    expect(res.result).toEqual([{ name: 'onboarding' }]);
  });

  it('a workflow deleted in Development is deleted in Production by the next publish; selective publish deletes nothing', async () => {
    const other = uniqueName('digest').toLowerCase();
    await http(t.apiKey, 'POST', '/v1/workflows', { name: 'Other', identifier: other, active: true, steps: [{ template: { type: 'in_app', content: 'x' } }] });
    const selective = await sdk('environments.publish resources', () =>
      dev.environments.publish({ resources: [{ resourceType: 'REGULAR', resourceId: other }] }, prodId),
    );
    expect(selective.result.results[0].successful).toEqual([{ resourceType: 'REGULAR', resourceId: other, resourceName: 'Other', action: 'created' }]);
    await sdkFails('environments.publish with an unknown resource', 400, () =>
      dev.environments.publish({ resources: [{ resourceType: 'REGULAR', resourceId: 'no-such-workflow' }] }, prodId),
    );

    expect((await http(t.apiKey, 'DELETE', `/v1/workflows/${other}`)).status).toBe(200);
    const diff = await sdk('environments.diff', () => dev.environments.diff({}, prodId));
    expect(diff.result.resources.map((r) => [r.targetResource?.id, r.changes[0].action])).toEqual([
      [identifier, 'unchanged'],
      [other, 'deleted'],
    ]);
    const res = await sdk('environments.publish', () => dev.environments.publish({}, prodId));
    expect(res.result.results[0].successful).toEqual([{ resourceType: 'REGULAR', resourceId: other, resourceName: 'Other', action: 'deleted' }]);
    expect((await workflowsOf(prodKey)).map((w) => w.triggers[0].identifier)).toEqual([identifier]);
  });

  it('publishing refuses one environment as both sides, and an environment of another organization', async () => {
    const same = await sdkFails('publish to itself', 400, () => dev.environments.publish({}, devId));
    expect(same.code).toBe('publish_same_environment');
    await sdkFails('diff to an unknown environment', 404, () => dev.environments.diff({}, '6650f0a1c2b3d4e5f6a7b8c9'));
  });

  let stagingId: string;
  let stagingKey: string;

  it('workflows.sync copies one workflow to another environment and answers the copy', async () => {
    const staging = await sdk('environments.create Staging', () => prod.environments.create({ name: 'Staging', color: '#2196f3' }));
    stagingId = staging.result.id;
    stagingKey = staging.result.apiKeys![0].key;
    const res = await sdk('workflows.sync', () => dev.workflows.sync({ targetEnvironmentId: stagingId }, identifier));
    expect(res.result).toMatchObject({ workflowId: identifier, name: 'Welcome', status: 'ACTIVE' });
    expect(res.result.steps.map((s) => s.type)).toEqual(['in_app', 'delay']);
    expect(res.result.lastPublishedAt).toEqual(expect.any(String));
    expect((await workflowsOf(stagingKey)).map((w) => w._id)).toEqual([res.result.id]);
    const again = await sdk('workflows.sync again', () => dev.workflows.sync({ targetEnvironmentId: stagingId }, identifier));
    expect(again.result).toEqual(res.result);
  });

  it('environments.update changes the name, colour and parent', async () => {
    const res = await sdk('environments.update', () => dev.environments.update({ name: 'Staging EU', color: '#00bcd4', parentId: prodId }, stagingId));
    expect(res.result).toMatchObject({ id: stagingId, name: 'Staging EU', parentId: prodId });
    await sdkFails('environments.update with a taken name', 409, () => dev.environments.update({ name: 'Production' }, stagingId));
    const cycle = await sdkFails('environments.update making a cycle', 400, () => dev.environments.update({ parentId: stagingId }, prodId));
    expect(cycle.code).toBe('environment_parent_invalid');
    const rename = await sdkFails('rename Development', 400, () => prod.environments.update({ name: 'Dev' }, devId));
    expect(rename.code).toBe('environment_development_rename');
  });

  it('environments.delete: its keys stop at once and it is gone; the own, Development and unknown environments are refused', async () => {
    expect((await sdkFails('delete its own environment', 400, () => client(stagingKey).environments.delete(stagingId))).code).toBe('environment_delete_own');
    expect((await sdkFails('delete Development', 400, () => prod.environments.delete(devId))).code).toBe('environment_delete_development');
    await sdk('environments.delete', () => dev.environments.delete(stagingId));
    expect((await http(stagingKey, 'GET', '/v1/environments/me')).status).toBe(401);
    expect((await sdk('environments.list', () => dev.environments.list())).result.map((e) => e.name).sort()).toEqual(['Development', 'Production']);
    await sdkFails('delete it again', 404, () => dev.environments.delete(stagingId));
  });
});
