import { LoopbackReceiver } from '../../libs/providers/src/testing/loopback-receiver';
import { ApiClient, TestApp, describeEachStore, startTestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const SETTLED = ['completed', 'failed', 'canceled', 'merged', 'skipped'];
const MASK = '••••••••';
const SECRET = 's3cr3t-support-token';

/**
 * Environment variables and contexts in delivery: `{{env.SUPPORT_URL}}` renders each environment's
 * own value once the workflow is published from Development to Production; a secret is masked in
 * content and previews, and sent as it is only by an HTTP request step; a context's data fills an
 * in-app message and decides a step's condition, as the context is when the step runs.
 */
describeEachStore('environment variables and contexts in delivery (%s)', (store) => {
  let t: TestApp;
  let dev: ApiClient;
  let prod: ApiClient;
  let devId: string;
  let prodId: string;
  let endpoint: LoopbackReceiver;

  beforeAll(async () => {
    endpoint = await LoopbackReceiver.start();
    endpoint.respond((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    t = await startTestApp({ store });
    dev = t.api(t.apiKey);
    devId = (await dev.get('/v1/environments/me')).body.data._id;
    const production = await dev.post('/v1/environments').send({ name: 'Production', color: '#ff5722' });
    expect(production.status).toBe(201);
    prodId = production.body.data._id;
    prod = t.api(production.body.data.apiKeys[0].key);
  });
  afterAll(async () => {
    await t?.close();
    await endpoint?.close();
  });

  async function subscriber(api: ApiClient) {
    const subscriberId = uniqueName('sub');
    expect((await api.post('/v2/subscribers').send({ subscriberId, firstName: 'Ada' })).status).toBe(201);
    return subscriberId;
  }

  async function trigger(api: ApiClient, body: Record<string, unknown>) {
    const res = await api.post('/v1/events/trigger').send(body);
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe('processed');
    return res.body.data.transactionId as string;
  }

  /** The transaction's jobs once each is settled, in chain order. */
  function settledJobs(api: ApiClient, transactionId: string) {
    return waitFor(async () => {
      const jobs = ((await api.get('/v1/notifications').query({ transactionId })).body.data?.[0]?.jobs ?? []) as {
        status: string;
        executionDetails: { detail: string; raw?: string }[];
      }[];
      return jobs.length > 0 && jobs.every((job) => SETTLED.includes(job.status)) && jobs;
    });
  }

  async function inAppContents(api: ApiClient, transactionId: string) {
    await settledJobs(api, transactionId);
    const res = await api.get('/v1/messages').query({ transactionId, channel: 'in_app' });
    return (res.body.data as { content: string }[]).map((message) => message.content).sort();
  }

  it('{{env.SUPPORT_URL}} differs between Development and Production after a publish; a secret shows masked, and only an HTTP request sends it', async () => {
    const workflowId = uniqueName('help').toLowerCase();
    expect(
      (await dev.post('/v1/environment-variables').send({ key: 'SUPPORT_URL', values: [{ _environmentId: devId, value: 'https://dev.example.com/help' }] }))
        .status,
    ).toBe(200);
    expect(
      (await prod.patch('/v1/environment-variables/SUPPORT_URL').send({ values: [{ _environmentId: prodId, value: 'https://example.com/help' }] })).status,
    ).toBe(200);
    for (const [api, environmentId] of [
      [dev, devId],
      [prod, prodId],
    ] as const) {
      const body = { key: 'SUPPORT_TOKEN', isSecret: true, values: [{ _environmentId: environmentId, value: SECRET }] };
      const written =
        api === dev
          ? await api.post('/v1/environment-variables').send(body)
          : await api.patch('/v1/environment-variables/SUPPORT_TOKEN').send({ values: body.values });
      expect(written.status).toBe(200);
      expect(written.body.data.values).toEqual([{ _environmentId: environmentId, value: MASK }]);
    }

    const created = await dev.post('/v2/workflows').send({
      name: 'Help',
      workflowId,
      active: true,
      steps: [
        { name: 'Help', type: 'in_app', controlValues: { body: 'Help: {{ env.SUPPORT_URL }} (token {{ env.SUPPORT_TOKEN }})' } },
        {
          name: 'Notify desk',
          type: 'http_request',
          controlValues: {
            method: 'POST',
            url: endpoint.url('/desk'),
            headers: [{ key: 'X-Desk', value: '{{ env.SUPPORT_TOKEN }}' }],
            body: '{"help": "{{ env.SUPPORT_URL }}"}',
          },
        },
      ],
    });
    expect(created.status).toBe(201);
    // not in Production until published; publishing copies the workflow, never the values (each environment keeps its own)
    expect((await dev.post(`/v2/environments/${prodId}/publish`).send({})).status).toBe(200);

    const devTx = await trigger(dev, { name: workflowId, to: await subscriber(dev) });
    const prodTx = await trigger(prod, { name: workflowId, to: await subscriber(prod) });
    expect(await inAppContents(dev, devTx)).toEqual([`Help: https://dev.example.com/help (token ${MASK})`]);
    expect(await inAppContents(prod, prodTx)).toEqual([`Help: https://example.com/help (token ${MASK})`]);

    const calls = endpoint.requests.filter((request) => request.path === '/desk');
    expect(calls.map((call) => [call.headers['x-desk'], JSON.parse(call.rawBody).help]).sort()).toEqual([
      [SECRET, 'https://dev.example.com/help'],
      [SECRET, 'https://example.com/help'],
    ]);
    // what the activity feed shows of the request never holds the secret
    const jobs = await settledJobs(prod, prodTx);
    expect(JSON.stringify(jobs)).not.toContain(SECRET);
    expect(JSON.parse(jobs[1].executionDetails.find((detail) => detail.detail === 'HTTP request succeeded')!.raw!).request.headers['X-Desk']).toBe(MASK);

    // the preview renders the environment's values, a secret masked (even when one is given for it)
    const workflow = (await dev.get(`/v2/workflows/${workflowId}`)).body.data;
    const preview = await dev
      .post(`/v2/workflows/${workflowId}/step/${workflow.steps[0].stepId}/preview`)
      .send({ previewPayload: { env: { SUPPORT_TOKEN: 'guess' } } });
    expect(preview.status).toBe(201);
    expect(preview.body.data.result.preview.body).toBe(`Help: https://dev.example.com/help (token ${MASK})`);
    expect(preview.body.data.previewPayloadExample.env).toEqual({ SUPPORT_URL: 'https://dev.example.com/help', SUPPORT_TOKEN: MASK });
    const httpPreview = await dev.post(`/v2/workflows/${workflowId}/step/${workflow.steps[1].stepId}/preview`).send({});
    expect(JSON.stringify(httpPreview.body)).not.toContain(SECRET);
  });

  it("a context's data appears in an in-app message and decides a step condition, as the context is when the step runs", async () => {
    const workflowId = uniqueName('plan').toLowerCase();
    expect(
      (
        await dev.post('/v2/workflows').send({
          name: 'Plan',
          workflowId,
          active: true,
          steps: [
            { name: 'Welcome', type: 'in_app', controlValues: { body: 'Welcome to {{ context.tenant.data.name }} ({{ context.tenant.id }})' } },
            {
              name: 'Pro offer',
              type: 'in_app',
              // runs only for a tenant on the pro plan
              controlValues: { body: 'Your pro offer', skip: { '==': [{ var: 'context.tenant.data.plan' }, 'pro'] } },
            },
          ],
        })
      ).status,
    ).toBe(201);
    const subscriberId = await subscriber(dev);
    const acme = await trigger(dev, { name: workflowId, to: subscriberId, context: { tenant: { id: 'acme', data: { name: 'Acme Corp', plan: 'pro' } } } });
    expect(await inAppContents(dev, acme)).toEqual(['Welcome to Acme Corp (acme)', 'Your pro offer']);

    expect((await dev.post('/v2/contexts').send({ type: 'tenant', id: 'globex', data: { name: 'Globex', plan: 'free' } })).status).toBe(201);
    const globex = await trigger(dev, { name: workflowId, to: subscriberId, context: { tenant: 'globex' } });
    expect(await inAppContents(dev, globex)).toEqual(['Welcome to Globex (globex)']);
    const skipped = await settledJobs(dev, globex);
    expect(skipped.map((job) => job.status)).toEqual(['completed', 'canceled']);
    expect(skipped[1].executionDetails.map((detail) => detail.detail)).toContain('Step was skipped based on steps conditions');

    // the data as it is when the step runs: an update shows in the next trigger
    expect((await dev.patch('/v2/contexts/tenant/globex').send({ data: { name: 'Globex Inc', plan: 'pro' } })).status).toBe(200);
    const upgraded = await trigger(dev, { name: workflowId, to: subscriberId, context: { tenant: 'globex' } });
    expect(await inAppContents(dev, upgraded)).toEqual(['Welcome to Globex Inc (globex)', 'Your pro offer']);

    const activity = await dev.get('/v1/notifications').query({ transactionId: upgraded });
    expect(activity.body.data[0].contextKeys).toEqual(['tenant:globex']);
    const feed = await dev.get(`/v2/subscribers/${subscriberId}/notifications`).query({ contextKeys: 'tenant:acme', limit: 10 });
    expect(feed.body.data.map((notification: { body: string }) => notification.body).sort()).toEqual(['Welcome to Acme Corp (acme)', 'Your pro offer']);
  });

  it('a malformed context is refused (422, naming it) and nothing is stored', async () => {
    const res = await dev.post('/v1/events/trigger').send({ name: 'anything', to: 'ada', context: { tenant: 'not ok', 'bad type': 'x' } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['context.bad type', 'context.tenant']);
    expect((await dev.get('/v2/contexts').query({ search: 'not ok' })).body.totalCount).toBe(0);
  });
});
