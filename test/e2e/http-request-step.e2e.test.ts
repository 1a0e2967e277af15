import { ENVIRONMENT_REPOSITORY, EnvironmentRepository } from '@app/environments';
import { CreateWorkflow, StepDraft } from '@app/workflows';
import { LoopbackReceiver } from '../../libs/providers/src/testing/loopback-receiver';
import { ApiClient, StoreUnderTest, TestApp, startTestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const SETTLED = ['completed', 'failed', 'canceled', 'merged', 'skipped'];
const TOKEN = 'secret-token-4f9a2b';

const MODES: { name: string; store: StoreUnderTest; redis: boolean }[] = [
  { name: 'embedded, PGlite', store: 'pglite', redis: false },
  { name: 'PostgreSQL + Redis', store: 'postgres', redis: true },
];

/**
 * HTTP request steps end to end against a loopback endpoint: the rendered request arrives, the
 * answer fills a later step's content and decides a later step's conditions (`skip`), a failed call
 * stops the chain unless continueOnFailure, and a private target is refused unless
 * ALLOW_PRIVATE_NETWORK_TARGETS. Workflows are written through CreateWorkflow (v2 step types).
 */
describe.each(MODES)('HTTP request steps ($name)', ({ store, redis }) => {
  let t: TestApp;
  let endpoint: LoopbackReceiver;

  beforeAll(async () => {
    endpoint = await LoopbackReceiver.start();
    // /users answers who the order belongs to: plan pro for a vip order; /fail answers 400.
    endpoint.respond((req, res) => {
      if (req.path.startsWith('/fail')) return res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"rejected"}');
      const sent = JSON.parse(req.rawBody || '{}') as { order?: string };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ name: 'Ada Lovelace', plan: sent.order === 'vip' ? 'pro' : 'free', token: TOKEN }));
    });
    t = await startTestApp({ store, redis });
  });
  afterAll(async () => {
    await t?.close();
    await endpoint?.close();
  });

  /** A fresh environment of the app, with its API client and a way to write v2 workflows. */
  async function environment(app: TestApp = t) {
    const { environmentId, apiKey } = await app.createEnvironment(uniqueName('Env'));
    const [organization] = await app.app.get<EnvironmentRepository>(ENVIRONMENT_REPOSITORY).listOrganizations();
    const api: ApiClient = app.api(apiKey);
    async function workflow(steps: StepDraft[]) {
      const name = uniqueName('wf').toLowerCase();
      await app.app.get(CreateWorkflow).execute({
        scope: { organizationId: organization.id, environmentId },
        creatorId: 'e2e',
        fields: { name, identifier: name, active: true, origin: 'novu-cloud', steps },
      });
      return name;
    }
    async function subscriber() {
      const subscriberId = uniqueName('sub');
      expect((await api.post('/v2/subscribers').send({ subscriberId, firstName: 'Ada' })).status).toBe(201);
      return subscriberId;
    }
    async function trigger(name: string, to: string, payload: Record<string, unknown>) {
      const res = await api.post('/v1/events/trigger').send({ name, to, payload });
      expect(res.status).toBe(201);
      return res.body.data.transactionId as string;
    }
    /** The transaction's jobs once each is settled, in chain order. */
    async function settledJobs(transactionId: string) {
      return waitFor(async () => {
        const res = await api.get('/v1/notifications').query({ transactionId });
        const jobs = (res.body.data?.[0]?.jobs ?? []) as any[];
        return jobs.length > 0 && jobs.every((job) => SETTLED.includes(job.status)) && jobs;
      });
    }
    async function inAppContents(transactionId: string) {
      const res = await api.get('/v1/messages').query({ transactionId, channel: 'in_app' });
      return (res.body.data as any[]).map((message) => message.content as string).sort();
    }
    return { workflow, subscriber, trigger, settledJobs, inAppContents };
  }

  const fetchUser = (extra: Record<string, unknown> = {}): StepDraft => ({
    name: 'Fetch user',
    template: { type: 'http_request' },
    metadata: {
      method: 'POST',
      url: endpoint.url('/users'),
      headers: [{ key: 'Authorization', value: 'Bearer {{payload.token}}' }],
      body: '{"subscriber": "{{subscriber.subscriberId}}", "order": "{{payload.order}}"}',
      responseBodySchema: { type: 'object', properties: { name: { type: 'string' }, plan: { type: 'string' } }, required: ['name', 'plan'] },
      enforceSchemaValidation: true,
      ...extra,
    },
  });
  const inApp = (name: string, content: string, extra: Partial<StepDraft> = {}): StepDraft => ({ name, template: { type: 'in_app', content }, ...extra });
  const detailsOf = (job: any) => (job.executionDetails as any[]).map((detail) => detail.detail as string);

  it("sends the rendered request; the answer fills a later step's content and decides a later step's conditions", async () => {
    const e = await environment();
    const name = await e.workflow([
      fetchUser(),
      inApp('Greeting', 'Hello {{ steps.fetch-user.name | upcase }}, plan {{steps.fetch-user.plan}}'),
      // runs only when the answer says pro (Novu's step conditions say when a step runs)
      inApp('Pro offer', 'Your pro offer', { skip: { '==': [{ var: 'steps.fetch-user.plan' }, 'pro'] } }),
    ]);
    const subscriberId = await e.subscriber();

    const vip = await e.trigger(name, subscriberId, { order: 'vip', token: TOKEN });
    const jobs = await e.settledJobs(vip);
    expect(jobs.map((job) => [job.type, job.status])).toEqual([
      ['http_request', 'completed'],
      ['in_app', 'completed'],
      ['in_app', 'completed'],
    ]);
    const call = endpoint.requests.find((request) => request.path === '/users' && request.rawBody.includes(subscriberId))!;
    expect(call.method).toBe('POST');
    expect(JSON.parse(call.rawBody)).toEqual({ subscriber: subscriberId, order: 'vip' });
    expect(call.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'idempotency-key': jobs[0]._id });
    expect(await e.inAppContents(vip)).toEqual(['Hello ADA LOVELACE, plan pro', 'Your pro offer']);

    // the step as the activity feed shows it: the request and the answer, the token masked everywhere
    expect(detailsOf(jobs[0])).toContain('HTTP request succeeded');
    const success = JSON.parse(jobs[0].executionDetails.find((detail: any) => detail.detail === 'HTTP request succeeded').raw);
    expect(success.request).toMatchObject({ method: 'POST', headers: { Authorization: 'Bearer ****' }, body: expect.stringContaining('"order": "vip"') });
    expect(success.response).toMatchObject({ status: 200, body: { name: 'Ada Lovelace', plan: 'pro', token: '****' } });
    expect(JSON.stringify(jobs.map((job) => job.executionDetails))).not.toContain(TOKEN);

    const regular = await e.trigger(name, subscriberId, { order: 'regular', token: TOKEN });
    const skipped = await e.settledJobs(regular);
    expect(skipped.map((job) => job.status)).toEqual(['completed', 'completed', 'canceled']);
    expect(detailsOf(skipped[2])).toContain('Step was skipped based on steps conditions');
    expect(await e.inAppContents(regular)).toEqual(['Hello ADA LOVELACE, plan free']);
  });

  it('a failed call cancels the rest of the chain; with continueOnFailure the chain goes on', async () => {
    const e = await environment();
    const subscriberId = await e.subscriber();
    const failing = (continueOnFailure: boolean) => fetchUser({ url: endpoint.url(`/fail/${subscriberId}`), continueOnFailure });

    const stops = await e.trigger(await e.workflow([failing(false), inApp('After', 'after {{steps.fetch-user.name}}')]), subscriberId, { order: 'vip' });
    const stopped = await e.settledJobs(stops);
    expect(stopped.map((job) => job.status)).toEqual(['failed', 'canceled']);
    expect(detailsOf(stopped[0])).toContain('HTTP request failed');
    const failure = JSON.parse(stopped[0].executionDetails.find((detail: any) => detail.detail === 'HTTP request failed').raw);
    expect(failure).toMatchObject({ error: { kind: 'invalid_request', status: 400 }, response: { status: 400, body: '{"error":"rejected"}' } });
    expect(detailsOf(stopped[1])).toContain('Step was canceled because a previous step failed');
    expect(await e.inAppContents(stops)).toEqual([]);

    const goesOn = await e.trigger(await e.workflow([failing(true), inApp('After', 'after [{{steps.fetch-user.name}}]')]), subscriberId, { order: 'vip' });
    const continued = await e.settledJobs(goesOn);
    expect(continued.map((job) => job.status)).toEqual(['failed', 'completed']);
    // a failed step hands nothing on
    expect(await e.inAppContents(goesOn)).toEqual(['after []']);
  });

  it('refuses a private target unless ALLOW_PRIVATE_NETWORK_TARGETS: the endpoint never hears of it', async () => {
    const guarded = await startTestApp({ store, redis, env: { ALLOW_PRIVATE_NETWORK_TARGETS: 'false' } });
    try {
      const e = await environment(guarded);
      const subscriberId = await e.subscriber();
      const path = `/users/${subscriberId}`;
      const transactionId = await e.trigger(await e.workflow([fetchUser({ url: endpoint.url(path) }), inApp('After', 'after')]), subscriberId, {});
      const jobs = await e.settledJobs(transactionId);
      expect(jobs.map((job) => job.status)).toEqual(['failed', 'canceled']);
      const failure = JSON.parse(jobs[0].executionDetails.find((detail: any) => detail.detail === 'HTTP request failed').raw);
      expect(failure.error).toMatchObject({ kind: 'invalid_request', message: expect.stringMatching(/not allowed: .*non-public address 127\.0\.0\.1/) });
      expect(endpoint.requests.filter((request) => request.path === path)).toEqual([]);
    } finally {
      await guarded.close();
    }
  });
});
