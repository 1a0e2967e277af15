/**
 * Environment variables through Novu's official SDK, `@novu/api` (each response validated by its zod
 * schemas): create, list, retrieve, update, delete and usage, with two environments (Development's
 * bootstrap key and Production's), a secret, and what each key may see and set. Embedded (PGlite)
 * and PostgreSQL + Redis.
 */
import { Novu } from '@novu/api';
import { AddressInfo } from 'node:net';
import { sdk, sdkFails } from '../support/novu-api';
import { TestApp, TestAppOptions, startTestApp, uniqueName } from '../support/test-app';

const MODES: [string, TestAppOptions][] = [
  ['embedded PGlite', { store: 'pglite' }],
  ['PostgreSQL + Redis', { store: 'postgres', redis: true }],
];

const MASK = '••••••••';

describe.each(MODES)('@novu/api environment variables (%s)', (_mode, options) => {
  let t: TestApp;
  let baseUrl: string;
  let dev: Novu;
  let devId: string;
  let prod: Novu;
  let prodId: string;

  const client = (secretKey: string) => new Novu({ secretKey, serverURL: baseUrl, retryConfig: { strategy: 'none' } });

  beforeAll(async () => {
    t = await startTestApp(options);
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    dev = client(t.apiKey);
    devId = (await sdk('environments.list', () => dev.environments.list())).result[0].id;
    const production = await sdk('environments.create', () => dev.environments.create({ name: 'Production', color: '#ff5722' }));
    prodId = production.result.id;
    prod = client(production.result.apiKeys![0].key);
  });
  afterAll(() => t?.close());

  it("create: a key of the organization with the API key's environment's value; taken keys, other environments and the mask refused", async () => {
    const created = await sdk('environmentVariables.create', () =>
      dev.environmentVariables.create({ key: 'SUPPORT_URL', values: [{ environmentId: devId, value: 'https://dev.example.com/help' }] }),
    );
    expect(created.result).toMatchObject({
      key: 'SUPPORT_URL',
      type: 'string',
      isSecret: false,
      values: [{ environmentId: devId, value: 'https://dev.example.com/help' }],
    });
    expect(created.result.id).toMatch(/^[0-9a-f]{24}$/);
    expect(created.result.organizationId).toMatch(/^[0-9a-f]{24}$/);

    expect(JSON.parse((await sdkFails('create a taken key', 409, () => prod.environmentVariables.create({ key: 'SUPPORT_URL' }))).body)).toMatchObject({
      code: 'environment_variable_key_taken',
    });
    const other = await sdkFails("create with another environment's value", 403, () =>
      dev.environmentVariables.create({ key: 'ELSEWHERE', values: [{ environmentId: prodId, value: 'x' }] }),
    );
    expect(JSON.parse(other.body)).toMatchObject({
      code: 'environment_variable_other_environment',
      message: expect.stringContaining('scoped to a single environment'),
    });
    await sdkFails('create with the mask as a value', 400, () =>
      dev.environmentVariables.create({ key: 'MASKED', isSecret: true, values: [{ environmentId: devId, value: MASK }] }),
    );
    await sdkFails('create with a key that is not one', 422, () => dev.environmentVariables.create({ key: '1-support' }));
    expect((await sdk('environmentVariables.list', () => dev.environmentVariables.list())).result.map((v) => v.key)).toEqual(['SUPPORT_URL']);
  });

  it("update: each key sets its own environment's value, merged with the others'; each key reads its own", async () => {
    const updated = await sdk('environmentVariables.update (Production)', () =>
      prod.environmentVariables.update({ values: [{ environmentId: prodId, value: 'https://example.com/help' }] }, 'SUPPORT_URL'),
    );
    expect(updated.result.values).toEqual([{ environmentId: prodId, value: 'https://example.com/help' }]);
    const seenByDev = await sdk('environmentVariables.retrieve (Development)', () => dev.environmentVariables.retrieve('SUPPORT_URL'));
    expect(seenByDev.result.values).toEqual([{ environmentId: devId, value: 'https://dev.example.com/help' }]);
    expect(seenByDev.result.updatedAt >= seenByDev.result.createdAt).toBe(true);
    await sdkFails("update another environment's value", 403, () =>
      prod.environmentVariables.update({ values: [{ environmentId: devId, value: 'hijacked' }] }, 'SUPPORT_URL'),
    );
    await sdkFails('update with nothing to change', 400, () => dev.environmentVariables.update({}, 'SUPPORT_URL'));
    await sdkFails('update an unknown key', 404, () => dev.environmentVariables.update({ isSecret: true }, 'NOPE'));
    expect((await sdk('retrieve after the refusals', () => prod.environmentVariables.retrieve('SUPPORT_URL'))).result.values).toEqual([
      { environmentId: prodId, value: 'https://example.com/help' },
    ]);
  });

  it('a secret is answered masked everywhere, its mask is refused as a value, and a rename keeps its values', async () => {
    const created = await sdk('environmentVariables.create secret', () =>
      dev.environmentVariables.create({ key: 'API_TOKEN', isSecret: true, values: [{ environmentId: devId, value: 's3cr3t-dev-token' }] }),
    );
    expect(created.result.values).toEqual([{ environmentId: devId, value: MASK }]);
    const listed = await sdk('environmentVariables.list search', () => dev.environmentVariables.list('token'));
    expect(listed.result).toEqual([expect.objectContaining({ key: 'API_TOKEN', isSecret: true, values: [{ environmentId: devId, value: MASK }] })]);
    expect(JSON.stringify((await sdk('list all', () => dev.environmentVariables.list())).result)).not.toContain('s3cr3t');
    await sdkFails('update with the mask', 400, () => dev.environmentVariables.update({ values: [{ environmentId: devId, value: MASK }] }, 'API_TOKEN'));

    const renamed = await sdk('environmentVariables.update rename', () => dev.environmentVariables.update({ key: 'SERVICE_TOKEN' }, 'API_TOKEN'));
    expect(renamed.result).toMatchObject({ key: 'SERVICE_TOKEN', isSecret: true, values: [{ environmentId: devId, value: MASK }] });
    await sdkFails('rename onto a taken key', 409, () => dev.environmentVariables.update({ key: 'SUPPORT_URL' }, 'SERVICE_TOKEN'));
    const shownAgain = await sdk('update isSecret false', () => dev.environmentVariables.update({ isSecret: false }, 'SERVICE_TOKEN'));
    expect(shownAgain.result.values).toEqual([{ environmentId: devId, value: 's3cr3t-dev-token' }]);
  });

  it('usage: the workflows that read a variable, each once', async () => {
    const workflowId = uniqueName('help').toLowerCase();
    await sdk('workflows.create', () =>
      dev.workflows.create({
        name: 'Help',
        workflowId,
        steps: [{ name: 'In-app', type: 'in_app', controlValues: { body: 'Need help? {{ env.SUPPORT_URL }}' } }],
      }),
    );
    await sdk('workflows.sync to Production', () => dev.workflows.sync({ targetEnvironmentId: prodId }, workflowId));
    const usage = await sdk('environmentVariables.usage', () => dev.environmentVariables.usage('SUPPORT_URL'));
    expect(usage.result).toEqual({ workflows: [{ name: 'Help', workflowId }] });
    expect((await sdk('usage of an unread variable', () => prod.environmentVariables.usage('SERVICE_TOKEN'))).result).toEqual({ workflows: [] });
    await sdkFails('usage of an unknown key', 404, () => dev.environmentVariables.usage('NOPE'));
  });

  it('delete: the variable with every value; then it is gone', async () => {
    await sdk('environmentVariables.delete', () => prod.environmentVariables.delete('SERVICE_TOKEN'));
    await sdkFails('retrieve a deleted variable', 404, () => dev.environmentVariables.retrieve('SERVICE_TOKEN'));
    await sdkFails('delete it again', 404, () => dev.environmentVariables.delete('SERVICE_TOKEN'));
    expect((await sdk('list after delete', () => dev.environmentVariables.list())).result.map((v) => v.key)).toEqual(['SUPPORT_URL']);
  });
});
