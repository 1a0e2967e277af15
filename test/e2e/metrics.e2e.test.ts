import request from 'supertest';
import { STEPS_QUEUE } from '@app/delivery';
import { JOB_QUEUE, JobQueue } from '@app/kernel';
import { WEBHOOKS_QUEUE, webhookJob } from '@app/webhooks';
import { TestApp, TestAppOptions, startTestApp, uniqueName } from '../support/test-app';
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
