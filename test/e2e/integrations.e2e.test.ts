import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import request from 'supertest';
import { ENVIRONMENT_REPOSITORY, EnvironmentRepository, hashApiKey } from '@app/environments';
import { INTEGRATION_REPOSITORY, IntegrationRepository } from '@app/integrations';
import { SQL_CLIENT, SqlClient } from '@app/store-sql';
import { STORES, TestApp, startTestApp } from '../support/test-app';

const SECRET = 'SG.very-secret-api-key';
const sendgrid = (overrides: Record<string, unknown> = {}) => ({
  providerId: 'sendgrid',
  channel: 'email',
  credentials: { apiKey: SECRET, from: 'no-reply@example.com', senderName: 'Example' },
  active: true,
  ...overrides,
});
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe.each(STORES)('integrations (%s)', (store) => {
  let t: TestApp;
  let sql: SqlClient;
  beforeAll(async () => {
    t = await startTestApp({ store });
    sql = t.app.get(SQL_CLIENT);
  });
  afterAll(() => t.close());

  const create = (body: object, key?: string) => t.api(key).post('/v1/integrations').send(body);
  const list = async (key?: string) => (await t.api(key).get('/v1/integrations').expect(200)).body.data as any[];
  const rawRow = async (id: string) => (await sql.query('SELECT * FROM integrations WHERE id = $1', [id]))[0];
  const storedCredentials = async (scope: { organizationId: string; environmentId: string }, id: string) =>
    (await t.app.get<IntegrationRepository>(INTEGRATION_REPOSITORY).findById(scope, id))!.credentials;

  it('gives the bootstrap Development environment an active in-app novu integration', async () => {
    const inApp = (await list()).filter((i) => i.channel === 'in_app');
    expect(inApp).toHaveLength(1);
    expect(inApp[0]).toMatchObject({ providerId: 'novu', name: 'Novu In-App', active: true, primary: false, priority: 0, deleted: false });
  });

  it('creates an integration with Novu response shape, masked secrets and a generated identifier', async () => {
    const res = await create(sendgrid()).expect(201);
    const body = res.body.data;
    expect(body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      _environmentId: expect.stringMatching(/^[0-9a-f]{24}$/),
      _organizationId: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'SendGrid',
      identifier: expect.stringMatching(/^sendgrid-[a-z0-9]{6}$/),
      providerId: 'sendgrid',
      channel: 'email',
      credentials: { apiKey: 'SG.v****', from: 'no-reply@example.com', senderName: 'Example' },
      configurations: {},
      active: true,
      deleted: false,
      primary: true,
      priority: 1,
      conditions: [],
      fallbacks: [],
      // Beyond Novu: the limits that apply (SendGrid publishes none the service keeps to).
      effectiveLimits: { rateLimitSource: 'none', maxConcurrencySource: 'none' },
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    expect((await list()).map((i) => i._id)).toContain(body._id);
  });

  it('keeps credentials encrypted at rest', async () => {
    const { body } = await create(sendgrid({ credentials: { apiKey: SECRET, from: 'at-rest@example.com', senderName: 'X' } })).expect(201);
    const row = await rawRow(body.data._id);
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(JSON.stringify(row)).not.toContain('at-rest@example.com');
    expect(row.credentials).toMatch(/^v1:/);
  });

  it('refuses a duplicate identifier with 409', async () => {
    await create(sendgrid({ identifier: 'mail-main' })).expect(201);
    const res = await create(sendgrid({ identifier: 'mail-main' })).expect(409);
    expect(res.body).toMatchObject({ statusCode: 409, message: 'Integration with identifier already exists' });
  });

  it('answers 422 naming the missing credentials of an active integration', async () => {
    const res = await create(sendgrid({ credentials: { apiKey: 'SG.x', senderName: ' ' } })).expect(422);
    expect(res.body.message).toBe('Missing credentials for sendgrid: from, senderName');
    expect(Object.keys(res.body.errors)).toEqual(['credentials.from', 'credentials.senderName']);
    expect(res.body.errors['credentials.from'].messages[0]).toContain('credentials.from');
    // Inactive integrations may be saved without them.
    const inactive = await create({ providerId: 'sendgrid', channel: 'email' }).expect(201);
    expect(inactive.body.data).toMatchObject({ active: false, primary: false, priority: 0, credentials: {} });
  });

  it('rejects unknown providers, channel mismatches and malformed bodies', async () => {
    const unknown = await create({ providerId: 'carrier-pigeon', channel: 'email' }).expect(422);
    expect(unknown.body.message).toContain('carrier-pigeon');
    const mismatch = await create({ providerId: 'twilio', channel: 'email' }).expect(400);
    expect(mismatch.body.message).toBe('Provider twilio is a sms provider, not a email provider');
    const invalid = await create({ providerId: 'sendgrid', channel: 'fax', active: 'yes' }).expect(422);
    expect(invalid.body.message).toBe('Validation Error');
    expect(Object.keys(invalid.body.errors).sort()).toEqual(['active', 'channel']);
    const badCondition = await create(sendgrid({ conditions: [{ value: 'XOR', children: [{ field: 1 }] }] })).expect(422);
    expect(Object.keys(badCondition.body.errors)).toEqual(expect.arrayContaining(['conditions.0.value', 'conditions.0.children.0.field']));
    const badCredential = await create(sendgrid({ credentials: { apiKey: 5 } })).expect(422);
    expect(Object.keys(badCredential.body.errors)).toEqual(['credentials.apiKey']);
  });

  it('allows one in-app provider per environment', async () => {
    const res = await create({ providerId: 'novu', channel: 'in_app', active: true }).expect(400);
    expect(res.body.message).toBe('One environment can only have one In app provider');
  });

  it('stores and returns conditions in full', async () => {
    const conditions = [{ value: 'AND', children: [{ field: 'identifier', value: 'acme', operator: 'EQUAL', on: 'tenant' }] }];
    const res = await create(sendgrid({ conditions, configurations: { inboundWebhookEnabled: false } })).expect(201);
    expect(res.body.data.conditions).toEqual([{ isNegated: false, type: 'BOOLEAN', ...conditions[0] }]);
    expect(res.body.data.configurations).toEqual({ inboundWebhookEnabled: false });
    expect((await list()).find((i) => i._id === res.body.data._id).conditions).toEqual(res.body.data.conditions);
  });

  it('keeps fallbacks: other integrations of the same channel, checked on create and update', async () => {
    const backup = (await create(sendgrid({ identifier: 'fallback-backup', name: 'Backup' })).expect(201)).body.data;
    const main = (await create(sendgrid({ identifier: 'fallback-main', fallbacks: ['fallback-backup', 'fallback-backup'] })).expect(201)).body.data;
    expect(main.fallbacks).toEqual(['fallback-backup']);
    await create({ providerId: 'discord', channel: 'chat', identifier: 'fallback-chat' }).expect(201);

    const refused = await create(sendgrid({ identifier: 'fallback-bad', fallbacks: ['nope', 'fallback-chat', 'fallback-bad'] })).expect(422);
    expect(refused.body.errors.fallbacks.messages).toEqual([
      'no integration nope in this environment',
      'fallback-chat is a chat integration, not email',
      'fallback-bad is the integration itself',
    ]);
    expect((await list()).map((i) => i.identifier)).not.toContain('fallback-bad');

    await t
      .api()
      .put(`/v1/integrations/${main._id}`)
      .send({ fallbacks: [main.identifier] })
      .expect(422);
    const cleared = await t.api().put(`/v1/integrations/${main._id}`).send({ fallbacks: [] }).expect(200);
    expect(cleared.body.data.fallbacks).toEqual([]);
    const cycle = await t
      .api()
      .put(`/v1/integrations/${backup._id}`)
      .send({ fallbacks: ['fallback-main'] })
      .expect(200);
    expect(cycle.body.data.fallbacks).toEqual(['fallback-main']);
  });

  it('keeps delivery limits: rateLimit and maxConcurrency set, changed and cleared; bad values a 422 that writes nothing', async () => {
    const limited = (await create(sendgrid({ identifier: 'limited', rateLimit: { perSecond: 100, burst: 20 }, maxConcurrency: 10 })).expect(201)).body.data;
    expect(limited).toMatchObject({ rateLimit: { perSecond: 100, burst: 20 }, maxConcurrency: 10 });
    expect(limited.effectiveLimits).toEqual({
      rateLimit: { perSecond: 100, burst: 20 },
      rateLimitSource: 'integration',
      maxConcurrency: 10,
      maxConcurrencySource: 'integration',
    });
    for (const bad of [
      { rateLimit: { perSecond: 0 } },
      { rateLimit: { perSecond: 1.5 } },
      { rateLimit: { burst: 3 } },
      { maxConcurrency: -1 },
      { maxConcurrency: 'many' },
    ]) {
      const refused = await create(sendgrid({ identifier: 'limited-bad', ...bad })).expect(422);
      expect(refused.body.statusCode).toBe(422);
      await t.api().put(`/v1/integrations/${limited._id}`).send(bad).expect(422);
    }
    expect((await list()).map((i) => i.identifier)).not.toContain('limited-bad');

    const changed = await t
      .api()
      .put(`/v1/integrations/${limited._id}`)
      .send({ rateLimit: { perSecond: 5 } })
      .expect(200);
    expect(changed.body.data).toMatchObject({ rateLimit: { perSecond: 5 }, maxConcurrency: 10 });
    const cleared = await t.api().put(`/v1/integrations/${limited._id}`).send({ rateLimit: null, maxConcurrency: null }).expect(200);
    expect(cleared.body.data).not.toHaveProperty('rateLimit');
    expect(cleared.body.data).not.toHaveProperty('maxConcurrency');
    expect((await t.api().get(`/v1/integrations`).expect(200)).body.data.find((i: { _id: string }) => i._id === limited._id)).not.toHaveProperty('rateLimit');
    expect(cleared.body.data.effectiveLimits).toEqual({ rateLimitSource: 'none', maxConcurrencySource: 'none' });
  });

  it("shows the limits that apply: the provider's default where the integration sets none, the integration's own over it", async () => {
    const twilio = (identifier: string, extra: object = {}) =>
      create({ providerId: 'twilio', channel: 'sms', identifier, credentials: { accountSid: 'AC1', token: 'tok-12345', from: '+15550001' }, ...extra }).expect(
        201,
      );
    const byDefault = (await twilio('twilio-default-pace')).body.data;
    expect(byDefault).not.toHaveProperty('rateLimit');
    expect(byDefault.effectiveLimits).toEqual({ rateLimit: { perSecond: 1 }, rateLimitSource: 'provider-default', maxConcurrencySource: 'none' });
    const own = (await twilio('twilio-own-pace', { rateLimit: { perSecond: 30 }, maxConcurrency: 5 })).body.data;
    expect(own.effectiveLimits).toEqual({
      rateLimit: { perSecond: 30 },
      rateLimitSource: 'integration',
      maxConcurrency: 5,
      maxConcurrencySource: 'integration',
    });
    const listed = (await list()).filter((i) => i.identifier === 'twilio-default-pace' || i.identifier === 'twilio-own-pace');
    expect(listed.map((i) => i.effectiveLimits.rateLimitSource).sort()).toEqual(['integration', 'provider-default']);
    await Promise.all([byDefault, own].map((i) => t.api().delete(`/v1/integrations/${i._id}`).expect(200)));
  });

  describe('update', () => {
    it('answers 400 on an empty body and 404 on unknown or malformed ids', async () => {
      const { body } = await create(sendgrid()).expect(201);
      const empty = await t.api().put(`/v1/integrations/${body.data._id}`).send({}).expect(400);
      expect(empty.body.message).toBe('No properties found for update');
      await t.api().put(`/v1/integrations/${body.data._id}`).send({ unknownField: 1 }).expect(400);
      const missing = await t.api().put('/v1/integrations/0123456789abcdef01234567').send({ name: 'x' }).expect(404);
      expect(missing.body.message).toBe('Entity with id 0123456789abcdef01234567 not found');
      const malformed = await t.api().put('/v1/integrations/not-an-id').send({ name: 'x' }).expect(404);
      expect(malformed.body.message).toBe('Entity with id not-an-id not found');
    });

    it('changes only what is sent, and keeps a secret sent back masked', async () => {
      const { body } = await create(sendgrid()).expect(201);
      const id = body.data._id;
      const res = await t
        .api()
        .put(`/v1/integrations/${id}`)
        .send({ name: 'Renamed', credentials: { apiKey: 'SG.v****', from: 'new@example.com' } })
        .expect(200);
      expect(res.body.data).toMatchObject({
        name: 'Renamed',
        identifier: body.data.identifier,
        credentials: { apiKey: 'SG.v****', from: 'new@example.com', senderName: 'Example' },
      });
      expect(res.body.data.updatedAt > body.data.updatedAt).toBe(true);
      const scope = { organizationId: body.data._organizationId, environmentId: body.data._environmentId };
      expect(await storedCredentials(scope, id)).toEqual({ apiKey: SECRET, from: 'new@example.com', senderName: 'Example' });

      const rotated = await t
        .api()
        .put(`/v1/integrations/${id}`)
        .send({ credentials: { apiKey: 'SG.rotated-key' } })
        .expect(200);
      expect(rotated.body.data.credentials.apiKey).toBe('SG.r****');
      expect((await storedCredentials(scope, id)).apiKey).toBe('SG.rotated-key');
    });

    it('validates credentials when activating, and refuses a taken identifier', async () => {
      const { body } = await create({ providerId: 'twilio', channel: 'sms', identifier: 'sms-inactive' }).expect(201);
      const res = await t
        .api()
        .put(`/v1/integrations/${body.data._id}`)
        .send({ active: true, credentials: { accountSid: 'AC1' } })
        .expect(422);
      expect(res.body.message).toBe('Missing credentials for twilio: token, from');
      await create(sendgrid({ identifier: 'taken-identifier' })).expect(201);
      const clash = await t.api().put(`/v1/integrations/${body.data._id}`).send({ identifier: 'taken-identifier' }).expect(409);
      expect(clash.body.message).toBe('Integration with identifier already exists');
    });
  });

  it('applies the primary rules to email and sms, not to other channels', async () => {
    const { apiKey } = await t.createEnvironment('Primary rules');
    const api = t.api(apiKey);
    const mk = async (body: object) => (await api.post('/v1/integrations').send(body).expect(201)).body.data;
    const get = async (id: string) => (await api.get('/v1/integrations').expect(200)).body.data.find((i: any) => i._id === id);
    const put = async (id: string, body: object) => (await api.put(`/v1/integrations/${id}`).send(body).expect(200)).body.data;

    const a = await mk(sendgrid());
    expect(a).toMatchObject({ primary: true, priority: 1 });
    const b = await mk(sendgrid());
    expect(b).toMatchObject({ primary: false, priority: 1 });
    expect(await get(a._id)).toMatchObject({ primary: true, priority: 2 });
    const c = await mk(sendgrid({ active: false }));
    expect(c).toMatchObject({ primary: false, priority: 0 });

    // Deactivating the primary clears it and renumbers the rest.
    expect(await put(a._id, { active: false })).toMatchObject({ active: false, primary: false, priority: 0 });
    expect(await get(b._id)).toMatchObject({ primary: false, priority: 1 });
    // Activating recomputes the priority; the primary flag stays as it was.
    expect(await put(c._id, { active: true })).toMatchObject({ active: true, primary: false, priority: 2 });
    // Only the first active integration of a channel becomes primary: with others active, a new one goes on top without it.
    const d = await mk(sendgrid());
    expect(d).toMatchObject({ primary: false, priority: 3 });
    // Conditions on a primary remove its primary flag.
    const first = await mk({ ...sendgrid(), channel: 'email' });
    expect(first).toMatchObject({ primary: false, priority: 4 });
    const conditions = [{ value: 'AND', children: [{ field: 'identifier', value: 'acme', operator: 'EQUAL', on: 'tenant' }] }];
    expect(await put(d._id, { conditions })).toMatchObject({ primary: false });

    // Other channels: never primary, priority 0.
    const chat = await mk({ providerId: 'slack', channel: 'chat', active: true });
    expect(chat).toMatchObject({ primary: false, priority: 0 });
    const push = await mk({ providerId: 'expo', channel: 'push', active: true, credentials: { apiKey: 'expo-token-123' } });
    expect(push).toMatchObject({ primary: false, priority: 0, credentials: { apiKey: 'expo****' } });
    // SMS has its own primary.
    expect(
      await mk({ providerId: 'twilio', channel: 'sms', active: true, credentials: { accountSid: 'AC1', token: 'tok-12345', from: '+15550001' } }),
    ).toMatchObject({
      primary: true,
      priority: 1,
    });
  });

  it('keeps one primary per channel and priorities unique and contiguous through creates, activations, deactivations and deletes', async () => {
    const { apiKey } = await t.createEnvironment('Ranking');
    const api = t.api(apiKey);
    const mk = async (body: object) => (await api.post('/v1/integrations').send(body).expect(201)).body.data;
    const put = async (id: string, body: object) => (await api.put(`/v1/integrations/${id}`).send(body).expect(200)).body.data;
    const ranking = async (channel: string) =>
      (await api.get('/v1/integrations').expect(200)).body.data
        .filter((i: any) => i.channel === channel && i.active)
        .sort((a: any, b: any) => b.priority - a.priority)
        .map((i: any) => [i.identifier, i.priority, i.primary]);
    const twilio = (identifier: string, active = true) => ({
      providerId: 'twilio',
      channel: 'sms',
      identifier,
      active,
      credentials: { accountSid: 'AC1', token: 'tok-12345', from: '+15550001' },
    });

    await mk(sendgrid({ identifier: 'e-1' }));
    const e2 = await mk(sendgrid({ identifier: 'e-2', active: false }));
    const e3 = await mk(sendgrid({ identifier: 'e-3', active: false }));
    // Activating slots each in under the primary; no two share a priority.
    expect(await put(e2._id, { active: true })).toMatchObject({ primary: false, priority: 1 });
    expect(await put(e3._id, { active: true })).toMatchObject({ primary: false, priority: 2 });
    expect(await ranking('email')).toEqual([
      ['e-1', 3, true],
      ['e-3', 2, false],
      ['e-2', 1, false],
    ]);
    // Deleting and deactivating close the gaps.
    await api.delete(`/v1/integrations/${e3._id}`).expect(200);
    expect(await ranking('email')).toEqual([
      ['e-1', 2, true],
      ['e-2', 1, false],
    ]);

    // SMS: a newly activated integration does not take the primary from an active one.
    const s1 = await mk(twilio('s-1'));
    expect(s1).toMatchObject({ primary: true, priority: 1 });
    const s2 = await mk(twilio('s-2', false));
    expect(await put(s2._id, { active: true })).toMatchObject({ primary: false, priority: 1 });
    await put(s1._id, { active: false });
    expect(await ranking('sms')).toEqual([['s-2', 1, false]]);
    // With another active one (not primary), a new active integration is not made primary either.
    expect(await mk(twilio('s-3'))).toMatchObject({ primary: false, priority: 2 });
    expect(await ranking('sms')).toEqual([
      ['s-3', 2, false],
      ['s-2', 1, false],
    ]);
  });

  it('keeps one primary and unique, contiguous priorities under concurrent creates, activations, set-primary and deletes', async () => {
    const { apiKey } = await t.createEnvironment('Concurrent ranking');
    const api = t.api(apiKey);
    const twilio = (n: number, active = true) => ({
      providerId: 'twilio',
      channel: 'sms',
      identifier: `c-${n}`,
      active,
      credentials: { accountSid: 'AC1', token: 'tok-12345', from: '+15550001' },
    });
    const ranking = async (): Promise<{ identifier: string; priority: number; primary: boolean }[]> =>
      (await api.get('/v1/integrations').expect(200)).body.data
        .filter((i: any) => i.channel === 'sms' && i.active)
        .map((i: any) => ({ identifier: i.identifier, priority: i.priority, primary: i.primary }))
        .sort((a: any, b: any) => b.priority - a.priority);
    const holdsTheRule = (ranked: { priority: number; primary: boolean }[]) => {
      expect(ranked.map((i) => i.priority)).toEqual(ranked.map((_, index) => ranked.length - index));
      expect(ranked.filter((i) => i.primary).length).toBeLessThanOrEqual(1);
      if (ranked.some((i) => i.primary)) expect(ranked[0].primary).toBe(true);
    };

    const made = (
      await Promise.all(
        [1, 2, 3, 4, 5, 6].map((n) =>
          api
            .post('/v1/integrations')
            .send(twilio(n, n % 2 === 1))
            .expect(201),
        ),
      )
    ).map((res) => res.body.data);
    let ranked = await ranking();
    holdsTheRule(ranked);
    expect(ranked).toHaveLength(3);
    // The first of the channel to be ranked became primary, and only it.
    expect(ranked.filter((i) => i.primary)).toHaveLength(1);

    await Promise.all([
      ...made.filter((i) => !i.active).map((i) => api.put(`/v1/integrations/${i._id}`).send({ active: true }).expect(200)),
      api.post(`/v1/integrations/${made[1]._id}/set-primary`).expect(201),
      api.delete(`/v1/integrations/${made[0]._id}`).expect(200),
      ...[7, 8, 9, 10].map((n) => api.post('/v1/integrations').send(twilio(n)).expect(201)),
    ]);
    ranked = await ranking();
    holdsTheRule(ranked);
    expect(ranked).toHaveLength(9);
  });

  it("accepts Novu's condition shapes: children alone (AND implied), and values left out", async () => {
    const children = [{ field: 'identifier', value: 'test', operator: 'EQUAL', on: 'tenant' }];
    const res = await create({
      providerId: 'sendgrid',
      channel: 'email',
      identifier: 'conditions-children',
      active: false,
      check: false,
      conditions: [{ children }],
    }).expect(201);
    expect(res.body.data.conditions).toEqual([{ isNegated: false, type: 'BOOLEAN', value: 'AND', children }]);
    const updated = await t
      .api()
      .put(`/v1/integrations/${res.body.data._id}`)
      .send({ conditions: [{ isNegated: false, children }] })
      .expect(200);
    expect(updated.body.data.conditions[0].value).toBe('AND');
    await create({ providerId: 'sendgrid', channel: 'email', conditions: [{ children: 'test' }] }).expect(422);
  });

  it('answers a PUT with only _environmentId with the integration, unchanged', async () => {
    const { body } = await create(sendgrid()).expect(201);
    const res = await t.api().put(`/v1/integrations/${body.data._id}`).send({ _environmentId: body.data._environmentId }).expect(200);
    expect(res.body.data).toMatchObject({ _id: body.data._id, name: body.data.name, updatedAt: body.data.updatedAt });
    await t.api().put(`/v1/integrations/${body.data._id}`).send({ _environmentId: '0123456789abcdef01234567' }).expect(400);
  });

  it('does not ask an inactive integration created with check: false for credentials', async () => {
    const res = await create({ providerId: 'mailgun', channel: 'email', credentials: { apiKey: '123', secretKey: 'abc' }, active: false, check: false }).expect(
      201,
    );
    expect(res.body.data).toMatchObject({ active: false, primary: false, priority: 0 });
  });

  it('soft-deletes and answers the remaining integrations', async () => {
    const { apiKey, environmentId } = await t.createEnvironment('Deletion');
    const api = t.api(apiKey);
    const first = (await api.post('/v1/integrations').send(sendgrid()).expect(201)).body.data;
    const second = (await api.post('/v1/integrations').send(sendgrid()).expect(201)).body.data;
    const res = await api.delete(`/v1/integrations/${first._id}`).expect(200);
    const remaining = res.body.data.map((i: any) => i._id);
    expect(remaining).toContain(second._id);
    expect(remaining).not.toContain(first._id);
    expect(res.body.data.every((i: any) => i._environmentId === environmentId && !i.deleted)).toBe(true);
    // The deleted one's priority gap is closed.
    expect(res.body.data.find((i: any) => i._id === second._id)).toMatchObject({ primary: false, priority: 1 });

    const row = await rawRow(first._id);
    const key = await t.app.get<EnvironmentRepository>(ENVIRONMENT_REPOSITORY).findApiKeyByHash(hashApiKey(apiKey));
    expect(row).toMatchObject({ deleted: true, deleted_by: key!.id });
    expect(row.deleted_at).toBeInstanceOf(Date);

    await api.delete(`/v1/integrations/${first._id}`).expect(404);
    await api.put(`/v1/integrations/${first._id}`).send({ name: 'x' }).expect(404);
    await api.delete('/v1/integrations/nope').expect(404);
    // Its identifier is free again.
    await api
      .post('/v1/integrations')
      .send(sendgrid({ identifier: first.identifier }))
      .expect(201);
  });

  it("lists the organization's active integrations across environments", async () => {
    const other = await t.createEnvironment('Active elsewhere');
    const there = (await create(sendgrid(), other.apiKey).expect(201)).body.data;
    const inactive = (await create({ providerId: 'sendgrid', channel: 'email' }, other.apiKey).expect(201)).body.data;
    const here = (await create(sendgrid()).expect(201)).body.data;
    const res = await t.api().get('/v1/integrations/active').expect(200);
    const ids = res.body.data.map((i: any) => i._id);
    expect(ids).toEqual(expect.arrayContaining([there._id, here._id]));
    expect(ids).not.toContain(inactive._id);
    expect(res.body.data.every((i: any) => i.active && !i.deleted && i.configurations)).toBe(true);
    const environments = new Set(res.body.data.map((i: any) => i._environmentId));
    expect(environments.has(other.environmentId)).toBe(true);
    expect(res.body.data.filter((i: any) => i.providerId === 'novu' && i._environmentId === other.environmentId)).toHaveLength(1);
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
  });

  it("keeps one environment's integrations away from another's key", async () => {
    const mine = (await create(sendgrid()).expect(201)).body.data;
    const other = await t.createEnvironment('Isolated');
    await t.api(other.apiKey).put(`/v1/integrations/${mine._id}`).send({ name: 'stolen' }).expect(404);
    await t.api(other.apiKey).delete(`/v1/integrations/${mine._id}`).expect(404);
    expect((await list(other.apiKey)).map((i) => i._id)).not.toContain(mine._id);
    expect((await list(other.apiKey)).every((i) => i._environmentId === other.environmentId)).toBe(true);
    expect((await list()).find((i) => i._id === mine._id).name).toBe('SendGrid');
    const foreign = await create(sendgrid({ _environmentId: mine._environmentId }), other.apiKey).expect(400);
    expect(foreign.body.message).toContain('_environmentId');
  });

  describe('live check', () => {
    let smtp: SMTPServer;
    let port: number;
    beforeAll(async () => {
      smtp = new SMTPServer({
        disabledCommands: ['STARTTLS'],
        onAuth: (auth, _session, callback) =>
          auth.username === 'mailer' && auth.password === 'right-password' ? callback(null, { user: 'mailer' }) : callback(new Error('Invalid login')),
      });
      await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
      port = (smtp.server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

    const smtpBody = (password: string) => ({
      providerId: 'nodemailer',
      channel: 'email',
      active: true,
      check: true,
      credentials: { host: '127.0.0.1', port, user: 'mailer', password, ignoreTls: true, from: 'a@example.com', senderName: 'A' },
    });

    it('creates an SMTP integration whose server accepts the login', async () => {
      const res = await create(smtpBody('right-password')).expect(201);
      expect(res.body.data).toMatchObject({ name: 'Custom SMTP', credentials: { port: String(port), password: 'righ****', host: '127.0.0.1' } });
    });

    it("answers 400 with the server's message when the check fails, and stores nothing", async () => {
      const before = (await list()).length;
      const res = await create(smtpBody('wrong-password')).expect(400);
      expect(res.body.message).toMatch(/Invalid login/);
      expect((await list()).length).toBe(before);
    });

    it('checks on update too', async () => {
      const { body } = await create({ ...smtpBody('right-password'), check: false }).expect(201);
      await t
        .api()
        .put(`/v1/integrations/${body.data._id}`)
        .send({ check: true, credentials: { password: 'wrong-password' } })
        .expect(400);
      await t.api().put(`/v1/integrations/${body.data._id}`).send({ check: true, name: 'Checked SMTP' }).expect(200);
    });
  });

  it('documents every integrations route in the OpenAPI document', async () => {
    const { body } = await request(t.app.getHttpServer()).get('/api-json').expect(200);
    expect(Object.keys(body.paths['/v1/integrations']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(body.paths['/v1/integrations/{integrationId}']).sort()).toEqual(['delete', 'put']);
    expect(body.paths['/v1/integrations/active'].get.summary).toBeTruthy();
    expect(body.components.schemas.IntegrationResponseDto.properties.credentials).toBeDefined();
  });
});

describe.each(STORES)('integrations across a restart (%s)', (store) => {
  it('keeps integrations and can still decrypt their credentials', async () => {
    const first = await startTestApp({ store });
    const created = (
      await first
        .api()
        .post('/v1/integrations')
        .send(sendgrid({ identifier: 'survivor' }))
        .expect(201)
    ).body.data;
    const { store: s, dataDir, sqlSchema, apiKey } = first.options;
    await first.close();

    const second = await startTestApp({ store: s, dataDir, sqlSchema, apiKey });
    try {
      const listed = (await second.api().get('/v1/integrations').expect(200)).body.data;
      expect(listed.find((i: any) => i._id === created._id)).toMatchObject({ identifier: 'survivor', credentials: { apiKey: 'SG.v****' } });
      expect(listed.filter((i: any) => i.providerId === 'novu')).toHaveLength(1);
      const scope = { organizationId: created._organizationId, environmentId: created._environmentId };
      const stored = await second.app.get<IntegrationRepository>(INTEGRATION_REPOSITORY).findById(scope, created._id);
      expect(stored!.credentials.apiKey).toBe(SECRET);
    } finally {
      await second.close();
    }
  });
});
