import { INTEGRATION_REPOSITORY, IntegrationRepository } from '@app/integrations';
import { describeEachStore, startTestApp, TestApp } from '../support/test-app';

/**
 * Every kind of integration secret, each carrying a marker: no response of any integration route,
 * in any environment's view, error bodies included, may contain a marker; a masked value sent back
 * keeps the stored secret.
 */
const SECRETS = {
  apiKey: 'SG.MARKER-api-key-0001',
  password: 'MARKER-smtp-password',
  tlsKey: '-----BEGIN PRIVATE KEY-----MARKER-tls-key-----END PRIVATE KEY-----',
  passphrase: 'MARKER-passphrase',
  urlPassword: 'MARKER-url-password',
  urlToken: 'MARKER-url-token',
  chatSecret: 'MARKER-chat-secret',
  signingKey: 'whsec_MARKER-signing-key',
};
const MARKER = /MARKER-/;

describeEachStore('secrets are masked in every integration response (%s)', (store) => {
  let t: TestApp;
  const bodies: { route: string; body: unknown }[] = [];
  beforeAll(async () => {
    t = await startTestApp({ store, worker: false });
  });
  afterAll(() => t.close());

  const keep = (route: string, body: unknown) => bodies.push({ route, body });

  it('create, list, update, activate, the organization-wide active list, delete and error bodies show no secret', async () => {
    const created = [
      {
        providerId: 'sendgrid',
        channel: 'email',
        identifier: 's-sendgrid',
        credentials: { apiKey: SECRETS.apiKey, from: 'a@example.com', senderName: 'A' },
        active: true,
      },
      {
        providerId: 'nodemailer',
        channel: 'email',
        identifier: 's-smtp',
        credentials: {
          host: 'smtp.example.com',
          port: '587',
          user: 'u',
          password: SECRETS.password,
          tlsOptions: { key: SECRETS.tlsKey, passphrase: SECRETS.passphrase, rejectUnauthorized: true },
          from: 'a@example.com',
          senderName: 'A',
        },
        configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: SECRETS.signingKey },
      },
      {
        providerId: 'email-webhook',
        channel: 'email',
        identifier: 's-hook',
        credentials: {
          webhookUrl: `https://hooks:${SECRETS.urlPassword}@hooks.example.com/in?token=${SECRETS.urlToken}&team=ops`,
          secretKey: SECRETS.chatSecret,
          from: 'a@example.com',
          senderName: 'A',
        },
      },
    ];
    const ids: string[] = [];
    for (const body of created) {
      const res = await t.api().post('/v1/integrations').send(body).expect(201);
      keep(`POST ${body.providerId}`, res.body);
      ids.push(res.body.data._id);
    }
    keep('GET list', (await t.api().get('/v1/integrations').expect(200)).body);
    keep('PUT rename', (await t.api().put(`/v1/integrations/${ids[1]}`).send({ name: 'renamed' }).expect(200)).body);
    keep('PUT activate', (await t.api().put(`/v1/integrations/${ids[2]}`).send({ active: true }).expect(200)).body);
    const other = await t.createEnvironment('Other');
    keep('GET active (another environment of the organization)', (await t.api(other.apiKey).get('/v1/integrations/active').expect(200)).body);
    keep(
      '422 credentials of the wrong type',
      (
        await t
          .api()
          .put(`/v1/integrations/${ids[0]}`)
          .send({ credentials: { apiKey: 42, password: { SECRETS } } })
          .expect(422)
      ).body,
    );
    keep('DELETE', (await t.api().delete(`/v1/integrations/${ids[0]}`).expect(200)).body);

    const leaks = bodies.filter(({ body }) => MARKER.test(JSON.stringify(body))).map(({ route, body }) => `${route}: ${JSON.stringify(body).slice(0, 300)}`);
    expect(leaks).toEqual([]);
    const [, smtp, hook] = bodies.slice(0, 3).map(({ body }) => (body as { data: any }).data);
    expect(smtp.credentials.tlsOptions).toEqual({ key: '****', passphrase: '****', rejectUnauthorized: true });
    expect(smtp.configurations).toEqual({ inboundWebhookEnabled: true, inboundWebhookSigningKey: 'whse****' });
    expect(hook.credentials.webhookUrl).toBe('https://hooks:****@hooks.example.com/in?token=****&team=ops');
  });

  it('sending back what was shown keeps every stored secret', async () => {
    const { body } = await t.api().get('/v1/integrations').expect(200);
    const smtp = body.data.find((i: any) => i.identifier === 's-smtp');
    const hook = body.data.find((i: any) => i.identifier === 's-hook');
    await t.api().put(`/v1/integrations/${smtp._id}`).send({ credentials: smtp.credentials, configurations: smtp.configurations }).expect(200);
    await t.api().put(`/v1/integrations/${hook._id}`).send({ credentials: hook.credentials }).expect(200);
    const repository = t.app.get<IntegrationRepository>(INTEGRATION_REPOSITORY);
    const scope = { organizationId: smtp._organizationId, environmentId: smtp._environmentId };
    const storedSmtp = (await repository.findById(scope, smtp._id))!;
    expect(storedSmtp.credentials).toMatchObject({ password: SECRETS.password, tlsOptions: { key: SECRETS.tlsKey, passphrase: SECRETS.passphrase } });
    expect(storedSmtp.configurations.inboundWebhookSigningKey).toBe(SECRETS.signingKey);
    expect((await repository.findById(scope, hook._id))!.credentials.webhookUrl).toContain(
      `${SECRETS.urlPassword}@hooks.example.com/in?token=${SECRETS.urlToken}`,
    );
  });
});
