import { Test } from '@nestjs/testing';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { loadConfig } from '@app/config';
import { STEPS_QUEUE } from '@app/delivery';
import { JOB_QUEUE, JobQueue } from '@app/kernel';
import { MetricsServer } from '@app/metrics';
import { WEBHOOKS_QUEUE, webhookJob } from '@app/webhooks';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { TEST_DATABASE_URL, TEST_ENCRYPTION_KEY, TEST_REDIS_URL, TestApp, TestAppOptions, startTestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/** The value of one sample of the exposition (`name{labels} value`), undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const MODES: [string, TestAppOptions][] = [
  ['embedded: PGlite and the store queue', { store: 'pglite' }],
  ['PostgreSQL and Bull on Redis', { store: 'postgres', redis: true }],
];

/** GET /metrics: Prometheus text, no API key, fed by the trigger route, the delivery pipeline and the queues. */
describe.each(MODES)('GET /metrics (%s)', (_mode, options) => {
  let t: TestApp;
  const scrape = async () => {
    const res = await request(t.app.getHttpServer()).get('/metrics').expect(200);
    return res.text;
  };
  beforeAll(async () => {
    t = await startTestApp(options);
  });
  afterAll(() => t.close());

  async function createWorkflow(active = true): Promise<string> {
    const identifier = uniqueName('wf').toLowerCase();
    await t
      .api()
      .post('/v1/workflows')
      .send({ name: identifier, identifier, active, steps: [{ template: { type: 'in_app', content: 'Hi {{payload.name}}' } }] })
      .expect(201);
    return identifier;
  }

  it('needs no API key and answers in the Prometheus text format', async () => {
    const res = await request(t.app.getHttpServer()).get('/metrics').expect(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.text).toContain('# TYPE notify_http_request_duration_seconds histogram');
    expect(res.text).toContain('# TYPE process_cpu_user_seconds_total counter'); // Node process metrics
    // A wrong key is no reason to refuse it either: the key is not looked at.
    await request(t.app.getHttpServer()).get('/metrics').set('Authorization', 'ApiKey wrong').expect(200);
  });

  it('counts a trigger by status, its in-app delivery, and the trigger route under its pattern', async () => {
    const before = await scrape();
    const processed = 'notify_triggers_accepted_total{status="processed"}';
    const inApp = 'notify_deliveries_total{channel="in_app",provider="novu",outcome="sent"}';
    const triggerRoute = 'notify_http_request_duration_seconds_count{method="POST",route="/v1/events/trigger",status_code="201"}';

    const subscriberId = uniqueName('sub');
    await t
      .api()
      .post('/v1/events/trigger')
      .send({ name: await createWorkflow(), to: { subscriberId }, payload: { name: 'Ada' } })
      .expect(201);
    await t
      .api()
      .post('/v1/events/trigger')
      .send({ name: await createWorkflow(false), to: { subscriberId } })
      .expect(201);
    await waitFor(async () => {
      const res = await t.api().get('/v1/messages').query({ subscriberId });
      return res.status === 200 && res.body.data.length === 1;
    });

    const after = await scrape();
    expect(sample(after, processed)).toBe((sample(before, processed) ?? 0) + 1);
    expect(sample(after, 'notify_triggers_accepted_total{status="trigger_not_active"}')).toBe(
      (sample(before, 'notify_triggers_accepted_total{status="trigger_not_active"}') ?? 0) + 1,
    );
    expect(sample(after, inApp)).toBe((sample(before, inApp) ?? 0) + 1);
    expect(sample(after, triggerRoute)).toBe((sample(before, triggerRoute) ?? 0) + 2);
    expect(after).toContain('notify_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/v1/events/trigger",status_code="201"}');
  });

  it('labels a route by its pattern, never by the ids in the path; requests no route answered share one label; a body refused by the parser counts under its route', async () => {
    const subscriberId = uniqueName('sub');
    await t.api().get(`/v2/subscribers/${subscriberId}`).expect(404);
    await t.api().get(`/v1/no-such-route/${subscriberId}`).expect(404);
    await t.api().post('/v1/events/trigger').set('Content-Type', 'application/json').send('{"name":').expect(400); // refused by the parser, after routing
    const text = await scrape();
    expect(
      sample(text, 'notify_http_request_duration_seconds_count{method="GET",route="/v2/subscribers/:subscriberId",status_code="404"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'notify_http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'notify_http_request_duration_seconds_count{method="POST",route="/v1/events/trigger",status_code="400"}')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(subscriberId);
  });

  it('reports the depth and the oldest waiting job of each queue (fanout, steps, outbound webhooks), read at scrape time', async () => {
    // An api process with no consumers (production mode's api), so the job waits.
    const apiOnly = await startTestApp({ ...options, worker: false });
    const queue = apiOnly.app.get<JobQueue>(JOB_QUEUE);
    const waiting = uniqueName('held');
    const delayed = uniqueName('later');
    const retry = webhookJob(uniqueName('delivery'), 2, 600_000); // an outbound webhook attempt waiting out its backoff
    const attempt = webhookJob(uniqueName('delivery'), 1);
    try {
      await queue.add(STEPS_QUEUE, { id: waiting, data: { jobId: waiting } });
      await queue.add(STEPS_QUEUE, { id: delayed, data: { jobId: delayed }, delayMs: 600_000 });
      await queue.add(WEBHOOKS_QUEUE, retry);
      await queue.add(WEBHOOKS_QUEUE, attempt);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const text = (await request(apiOnly.app.getHttpServer()).get('/metrics').expect(200)).text;
      expect(sample(text, 'notify_queue_jobs{queue="steps",state="waiting"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'notify_queue_jobs{queue="steps",state="delayed"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'notify_queue_oldest_waiting_job_age_seconds{queue="steps"}')).toBeGreaterThanOrEqual(0.25);
      for (const state of ['waiting', 'delayed', 'active', 'failed']) {
        expect(sample(text, `notify_queue_jobs{queue="fanout",state="${state}"}`)).toBeGreaterThanOrEqual(0);
      }
      expect(sample(text, 'notify_queue_oldest_waiting_job_age_seconds{queue="fanout"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'notify_queue_jobs{queue="webhooks",state="waiting"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'notify_queue_jobs{queue="webhooks",state="delayed"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'notify_queue_jobs{queue="webhooks",state="active"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'notify_queue_jobs{queue="webhooks",state="failed"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'notify_queue_oldest_waiting_job_age_seconds{queue="webhooks"}')).toBeGreaterThanOrEqual(0.25);
    } finally {
      await queue.remove(STEPS_QUEUE, waiting);
      await queue.remove(STEPS_QUEUE, delayed);
      await queue.remove(WEBHOOKS_QUEUE, retry.id);
      await queue.remove(WEBHOOKS_QUEUE, attempt.id);
      await apiOnly.close();
    }
  });

  it('is documented in the OpenAPI document as needing no key', async () => {
    const doc = (await request(t.app.getHttpServer()).get('/api-json').expect(200)).body;
    expect(doc.paths['/metrics'].get).toMatchObject({ summary: expect.any(String), security: [] });
  });
});

/** METRICS_TOKEN and METRICS_PORT: an operator keeps the metrics to Prometheus. */
describe('GET /metrics, protected', () => {
  const token = `metrics-${randomBytes(12).toString('hex')}`;
  const bearer = `Bearer ${token}`;

  /** The refusal a scrape without the token gets, on either port. */
  function expectRefused(res: { status: number; headers: Record<string, string>; body: unknown }) {
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({
      statusCode: 401,
      error: 'Unauthorized',
      code: 'metrics_token_required',
      message: expect.stringContaining('METRICS_TOKEN'),
    });
  }

  describe('METRICS_TOKEN on the public port (one process: api and worker, no METRICS_PORT)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: { METRICS_TOKEN: token } });
    });
    afterAll(() => t.close());

    it('answers 401 without the bearer token, with a wrong one, or with an API key; 200 with it', async () => {
      const server = t.app.getHttpServer();
      expectRefused(await request(server).get('/metrics'));
      expectRefused(await request(server).get('/metrics').set('Authorization', `Bearer ${token}x`));
      expectRefused(await t.api().get('/metrics'));
      const res = await request(server).get('/metrics').set('Authorization', bearer).expect(200);
      expect(res.text).toContain('# TYPE notify_triggers_accepted_total counter');
    });

    it('leaves the API key routes and the health check as they are', async () => {
      await request(t.app.getHttpServer()).get('/v1/health-check').expect(200);
      await t.api().get('/v1/integrations').expect(200);
    });
  });

  describe('METRICS_PORT and METRICS_TOKEN on an api process (PostgreSQL, Redis)', () => {
    let t: TestApp;
    let metricsUrl: string;
    beforeAll(async () => {
      t = await startTestApp({ store: 'postgres', redis: true, worker: false, env: { METRICS_PORT: '0', METRICS_TOKEN: token, HOST: '127.0.0.1' } });
      metricsUrl = `http://127.0.0.1:${t.app.get(MetricsServer).boundPort}/metrics`;
    });
    afterAll(() => t.close());

    it('serves the metrics, queue gauges included, on that port only: 404 on the public port, out of the OpenAPI document', async () => {
      await request(t.app.getHttpServer()).get('/metrics').set('Authorization', bearer).expect(404);
      const doc = (await request(t.app.getHttpServer()).get('/api-json').expect(200)).body;
      expect(doc.paths['/metrics']).toBeUndefined();
      await t.api().get('/v1/integrations').expect(200); // counted by the HTTP histogram read below
      const scrape = await fetch(metricsUrl, { headers: { Authorization: bearer } });
      expect(scrape.status).toBe(200);
      const text = await scrape.text();
      expect(text).toContain('notify_queue_jobs{queue="steps",state="waiting"}');
      expect(text).toContain('notify_http_request_duration_seconds_count{method="GET",route="/v1/integrations",status_code="200"}');
    });

    it('asks for the token there', async () => {
      for (const headers of [{}, { Authorization: `ApiKey ${t.apiKey}` }] as Record<string, string>[]) {
        const res = await fetch(metricsUrl, { headers });
        expectRefused({ status: res.status, headers: Object.fromEntries(res.headers), body: await res.json() });
      }
    });
  });

  it('a worker asks for the token on its METRICS_PORT', async () => {
    const schema = uniqueName('t');
    const config = loadConfig({
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      STORE_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      METRICS_TOKEN: token,
    });
    const moduleRef = await Test.createTestingModule({
      imports: [WorkerModule.forRoot({ config, sqlSchema: schema, redisKeyPrefix: `${schema}:` })],
    }).compile();
    await moduleRef.init();
    try {
      const url = `http://127.0.0.1:${moduleRef.get(MetricsServer).boundPort}/metrics`;
      const refused = await fetch(url);
      expectRefused({ status: refused.status, headers: Object.fromEntries(refused.headers), body: await refused.json() });
      const scrape = await fetch(url, { headers: { Authorization: bearer } });
      expect(scrape.status).toBe(200);
      expect(await scrape.text()).toContain('# TYPE notify_deliveries_total counter');
    } finally {
      await moduleRef.close();
    }
  });
});
