import { SubscriberResponseDto$inboundSchema } from '@novu/api/models/components';
import { describeEachStore, startTestApp, TestApp } from '../support/test-app';

describeEachStore('subscriber credentials (%s)', (store) => {
  let t: TestApp;
  let fcmIntegrationId: string;
  beforeAll(async () => {
    t = await startTestApp({ store });
    const fcm = await t
      .api()
      .post('/v1/integrations')
      .send({ providerId: 'fcm', channel: 'push', name: 'FCM', identifier: 'fcm-main', credentials: { serviceAccount: '{"project_id":"p"}' }, active: true })
      .expect(201);
    fcmIntegrationId = fcm.body.data._id;
    await t.api().post('/v1/integrations').send({ providerId: 'slack', channel: 'chat', name: 'Slack', identifier: 'slack-main', active: true }).expect(201);
  });
  afterAll(() => t.close());

  const createSubscriber = (subscriberId: string) => t.api().post('/v2/subscribers').send({ subscriberId }).expect(201);
  const put = (subscriberId: string, body: object) => t.api().put(`/v1/subscribers/${subscriberId}/credentials`).send(body);
  const patch = (subscriberId: string, body: object) => t.api().patch(`/v1/subscribers/${subscriberId}/credentials`).send(body);
  const tokensOf = (body: any, providerId = 'fcm') =>
    body.data.channels.find((c: { providerId: string }) => c.providerId === providerId)?.credentials.deviceTokens;

  it('PUT sets credentials and answers with the subscriber and its channels', async () => {
    await createSubscriber('cred-1');
    const res = await put('cred-1', { providerId: 'fcm', credentials: { deviceTokens: ['a', 'b', 'a'] } }).expect(200);
    expect(res.body.data).toMatchObject({
      subscriberId: 'cred-1',
      channels: [{ providerId: 'fcm', _integrationId: fcmIntegrationId, integrationIdentifier: 'fcm-main', credentials: { deviceTokens: ['a', 'b'] } }],
    });
    SubscriberResponseDto$inboundSchema.parse(res.body.data);
    const stored = await t.api().get('/v2/subscribers/cred-1').expect(200);
    expect(tokensOf(stored.body)).toEqual(['a', 'b']);
  });

  it('PUT replaces tokens, PATCH appends; omitted tokens stay, [] clears', async () => {
    await createSubscriber('cred-2');
    await put('cred-2', { providerId: 'fcm', credentials: { deviceTokens: ['a', 'b'] } }).expect(200);
    expect(tokensOf((await patch('cred-2', { providerId: 'fcm', credentials: { deviceTokens: ['b', 'c'] } }).expect(200)).body)).toEqual(['a', 'b', 'c']);
    expect(tokensOf((await put('cred-2', { providerId: 'fcm', credentials: { deviceTokens: ['z'] } }).expect(200)).body)).toEqual(['z']);
    // Unlike Novu, credentials without deviceTokens leave the stored tokens alone.
    const merged = await patch('cred-2', { providerId: 'fcm', credentials: { webhookUrl: 'https://example.com/hook' } }).expect(200);
    expect(merged.body.data.channels[0].credentials).toEqual({ deviceTokens: ['z'], webhookUrl: 'https://example.com/hook' });
    expect(tokensOf((await put('cred-2', { providerId: 'fcm', credentials: {} }).expect(200)).body)).toEqual(['z']);
    expect(tokensOf((await patch('cred-2', { providerId: 'fcm', credentials: { deviceTokens: [] } }).expect(200)).body)).toEqual([]);
    expect((await t.api().get('/v2/subscribers/cred-2').expect(200)).body.data.channels).toHaveLength(1);
  });

  it('keeps one entry per provider integration, chat webhooks included', async () => {
    await createSubscriber('cred-3');
    await put('cred-3', { providerId: 'fcm', credentials: { deviceTokens: ['t'] } }).expect(200);
    const res = await put('cred-3', { providerId: 'slack', credentials: { webhookUrl: 'https://hooks.slack.com/x' } }).expect(200);
    expect(res.body.data.channels.map((c: { providerId: string }) => c.providerId)).toEqual(['fcm', 'slack']);
    // service-slack and novu-slack are Slack-compatible: with no integration of their own, the Slack one serves them.
    const alias = await put('cred-3', { providerId: 'service-slack', credentials: { webhookUrl: 'https://hooks.slack.com/y' } }).expect(200);
    expect(alias.body.data.channels).toHaveLength(2);
    expect(alias.body.data.channels[1]).toMatchObject({ providerId: 'slack', credentials: { webhookUrl: 'https://hooks.slack.com/y' } });
    await put('cred-3', { providerId: 'novu-slack', credentials: { webhookUrl: 'https://hooks.slack.com/z' } }).expect(200);
  });

  it('refuses more than 100 device tokens with 400 and the counts', async () => {
    await createSubscriber('cred-4');
    const tokens = Array.from({ length: 100 }, (_, i) => `t${i}`);
    await put('cred-4', { providerId: 'fcm', credentials: { deviceTokens: tokens } }).expect(200);
    const res = await patch('cred-4', { providerId: 'fcm', credentials: { deviceTokens: ['extra'] } }).expect(400);
    expect(res.body.message).toMatch(/^Device tokens limit exceeded/);
    expect(res.body).toMatchObject({ currentCount: 101, limit: 100 });
    expect(tokensOf((await t.api().get('/v2/subscribers/cred-4').expect(200)).body)).toHaveLength(100);
  });

  it('answers 400 for an unknown subscriber or a provider without an active integration', async () => {
    const missing = await put('nobody', { providerId: 'fcm', credentials: { deviceTokens: ['a'] } }).expect(400);
    expect(missing.body.message).toBe('SubscriberId: nobody not found');
    await createSubscriber('cred-5');
    const envId = (await t.api().get('/v2/subscribers/cred-5').expect(200)).body.data._environmentId;
    const noIntegration = await put('cred-5', { providerId: 'expo', credentials: { deviceTokens: ['a'] } }).expect(400);
    expect(noIntegration.body.message).toBe(`Subscribers environment (${envId}) do not have active expo integration.`);
    const wrongIdentifier = await put('cred-5', { providerId: 'fcm', integrationIdentifier: 'other', credentials: { deviceTokens: ['a'] } }).expect(400);
    expect(wrongIdentifier.body.message).toBe(`Subscribers environment (${envId}) do not have active fcm integration.`);
    await put('cred-5', { providerId: 'fcm', integrationIdentifier: 'fcm-main', credentials: { deviceTokens: ['a'] } }).expect(200);
    expect((await t.api().get('/v2/subscribers/cred-5').expect(200)).body.data.channels).toHaveLength(1);
  });

  it('validates the body with 422', async () => {
    await createSubscriber('cred-6');
    for (const body of [
      { providerId: 'sendgrid', credentials: {} },
      { credentials: { deviceTokens: ['a'] } },
      { providerId: 'fcm' },
      { providerId: 'fcm', credentials: { deviceTokens: 'a' } },
      { providerId: 'fcm', credentials: { deviceTokens: [1] } },
    ]) {
      const res = await put('cred-6', body).expect(422);
      expect(res.body.message).toBe('Validation Error');
    }
  });

  it('concurrent PATCHes lose no token', async () => {
    await createSubscriber('cred-7');
    await Promise.all(Array.from({ length: 8 }, (_, i) => patch('cred-7', { providerId: 'fcm', credentials: { deviceTokens: [`tok-${i}`] } }).expect(200)));
    const tokens = tokensOf((await t.api().get('/v2/subscribers/cred-7').expect(200)).body);
    expect([...tokens].sort()).toEqual(Array.from({ length: 8 }, (_, i) => `tok-${i}`).sort());
  });

  it('DELETE removes the provider’s credentials with 204', async () => {
    await createSubscriber('cred-8');
    await put('cred-8', { providerId: 'fcm', credentials: { deviceTokens: ['a'] } }).expect(200);
    await put('cred-8', { providerId: 'slack', credentials: { webhookUrl: 'https://hooks.slack.com/x' } }).expect(200);
    const res = await t.api().delete('/v1/subscribers/cred-8/credentials/fcm').expect(204);
    expect(res.text).toBe('');
    const after = await t.api().get('/v2/subscribers/cred-8').expect(200);
    expect(after.body.data.channels.map((c: { providerId: string }) => c.providerId)).toEqual(['slack']);
    await t.api().delete('/v1/subscribers/cred-8/credentials/fcm').expect(204);
    await t.api().delete('/v1/subscribers/nobody/credentials/fcm').expect(404);
  });

  it('keeps environments apart, and credentials across a restart', async () => {
    await createSubscriber('cred-9');
    await put('cred-9', { providerId: 'fcm', credentials: { deviceTokens: ['keep'] } }).expect(200);
    const other = await t.createEnvironment('Other');
    const res = await t
      .api(other.apiKey)
      .put('/v1/subscribers/cred-9/credentials')
      .send({ providerId: 'fcm', credentials: { deviceTokens: ['x'] } })
      .expect(400);
    expect(res.body.message).toBe('SubscriberId: cred-9 not found');
    await t.api(other.apiKey).post('/v2/subscribers').send({ subscriberId: 'cred-9' }).expect(201);
    // The other environment has no FCM integration of its own.
    await t
      .api(other.apiKey)
      .put('/v1/subscribers/cred-9/credentials')
      .send({ providerId: 'fcm', credentials: { deviceTokens: ['x'] } })
      .expect(400);
    await t.api(other.apiKey).delete('/v1/subscribers/cred-9/credentials/fcm').expect(204);

    const { store: s, dataDir, sqlSchema, apiKey } = t.options;
    await t.close();
    t = await startTestApp({ store: s, dataDir, sqlSchema, apiKey });
    expect(tokensOf((await t.api().get('/v2/subscribers/cred-9').expect(200)).body)).toEqual(['keep']);
  });
});
