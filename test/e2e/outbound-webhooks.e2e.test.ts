import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { LoopbackReceiver, ReceivedRequest } from '../../libs/providers/src/testing/loopback-receiver';
import { ServiceHarness, buildService } from '../support/service-processes';
import { ApiClient, describeEachStore, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/** What a receiver written for Novu Cloud (svix) and one written for Standard Webhooks each make of a request. */
function verifyBoth(request: ReceivedRequest, secret: string): any {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
  const bySvix = new SvixWebhook(secret).verify(request.rawBody, headers);
  const byStandard = new StandardWebhook(secret).verify(request.rawBody, headers);
  expect(byStandard).toEqual(bySvix);
  return bySvix;
}

const eventsAt = (receiver: LoopbackReceiver, path: string) => receiver.requests.filter((r) => r.path === path);

/**
 * Message events out, end to end in the embedded mode on both stores: a receiver on 127.0.0.1
 * verifies every event with the published `svix` and `standardwebhooks` libraries; retries are a
 * few hundred milliseconds apart (WEBHOOK_RETRY_DELAYS) so failure paths finish in the test.
 */
describeEachStore('outbound webhooks, embedded mode (%s)', (store) => {
  let t: TestApp;
  let receiver: LoopbackReceiver;
  /** Requests to /flaky-<n> fail this many times each, then succeed. */
  const flakyFailures = new Map<string, number>();

  beforeAll(async () => {
    receiver = await LoopbackReceiver.start();
    receiver.respond((req, res) => {
      if (req.path.startsWith('/down')) return void res.writeHead(503).end('down for maintenance');
      if (req.path.startsWith('/chat-fail')) return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"rejected"}');
      const left = flakyFailures.get(req.path);
      if (left) {
        flakyFailures.set(req.path, left - 1);
        return void res.writeHead(500).end('try later');
      }
      res.writeHead(204).end();
    });
    t = await startTestApp({ store, env: { WEBHOOK_RETRY_DELAYS: '200ms,200ms,200ms' } });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  async function environment() {
    const { apiKey } = await t.createEnvironment(uniqueName('Env'));
    return t.api(apiKey);
  }
  async function endpoint(api: ApiClient, path: string, extra: Record<string, unknown> = {}) {
    const res = await api.post('/v2/outbound-webhooks/endpoints').send({ url: receiver.url(path), ...extra });
    expect(res.status).toBe(201);
    return res.body.data as { _id: string; secret: string; url: string; eventTypes?: string[] };
  }
  async function attempts(api: ApiClient, id: string) {
    const res = await api.get(`/v2/outbound-webhooks/endpoints/${id}/attempts`).query({ limit: '100' });
    expect(res.status).toBe(200);
    return res.body.data as any[];
  }

  it('manages endpoints: the secret is shown at creation only; bad input is a 422 saying what is wrong; unknown ids a 404', async () => {
    const api = await environment();
    const created = await endpoint(api, '/manage', { description: 'orders', eventTypes: ['message.sent'] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    const got = await api.get(`/v2/outbound-webhooks/endpoints/${created._id}`).expect(200);
    expect(got.body.data).toMatchObject({
      _id: created._id,
      url: receiver.url('/manage'),
      description: 'orders',
      eventTypes: ['message.sent'],
      disabled: false,
    });
    expect(got.body.data).not.toHaveProperty('secret');
    const listed = await api.get('/v2/outbound-webhooks/endpoints').expect(200);
    expect(listed.body).toMatchObject({ page: 0, hasMore: false });
    expect(listed.body.data.map((e: any) => e._id)).toEqual([created._id]);
    expect(listed.body.data[0]).not.toHaveProperty('secret');

    const patched = await api.patch(`/v2/outbound-webhooks/endpoints/${created._id}`).send({ description: null, eventTypes: null, disabled: true }).expect(200);
    expect(patched.body.data).toMatchObject({ disabled: true });
    expect(patched.body.data).not.toHaveProperty('description');
    expect(patched.body.data).not.toHaveProperty('eventTypes');

    const badType = await api
      .post('/v2/outbound-webhooks/endpoints')
      .send({ url: receiver.url('/x'), eventTypes: ['message.exploded'] })
      .expect(422);
    expect(JSON.stringify(badType.body)).toContain('eventTypes');
    const badUrl = await api.post('/v2/outbound-webhooks/endpoints').send({ url: 'ftp://example.com/x' }).expect(422);
    expect(badUrl.body.message).toContain('http');
    await api.post('/v2/outbound-webhooks/endpoints').send({ url: 'http://169.254.169.254/latest' }).expect(422);
    await api.get('/v2/outbound-webhooks/endpoints/6650f0a1c2b3d4e5f6a7b8c9').expect(404);
    await api.post('/v2/outbound-webhooks/endpoints/6650f0a1c2b3d4e5f6a7b8c9/rotate-secret').expect(404);
    await api.delete(`/v2/outbound-webhooks/endpoints/${created._id}`).expect(204);
    await api.delete(`/v2/outbound-webhooks/endpoints/${created._id}`).expect(404);

    // an Idempotency-Key replay is the same endpoint, without the secret (never kept for a replay)
    const first = await api
      .post('/v2/outbound-webhooks/endpoints')
      .set('Idempotency-Key', uniqueName('k'))
      .send({ url: receiver.url('/once') });
    const key = first.headers['idempotency-key'];
    const replay = await api
      .post('/v2/outbound-webhooks/endpoints')
      .set('Idempotency-Key', key)
      .send({ url: receiver.url('/once') })
      .expect(201);
    expect(replay.headers['idempotency-replay']).toBe('true');
    expect(replay.body.data._id).toBe(first.body.data._id);
    expect(first.body.data.secret).toMatch(/^whsec_/);
    expect(replay.body.data).not.toHaveProperty('secret');
    // another environment never sees it
    const other = await environment();
    const theirs = await endpoint(other, '/theirs');
    await api.get(`/v2/outbound-webhooks/endpoints/${theirs._id}`).expect(404);
  });

  it('sends each event type its use case publishes once, signed so that svix and standardwebhooks both verify it', async () => {
    const api = await environment();
    const path = `/all-${uniqueName('e')}`;
    const all = await endpoint(api, path);
    const onlyDeleted = await endpoint(api, `${path}-deleted`, { eventTypes: ['workflow.deleted'] });

    // workflow.created / updated / deleted
    const identifier = uniqueName('wf').toLowerCase();
    const wf = (
      await api
        .post('/v1/workflows')
        .send({ name: identifier, identifier, active: true, steps: [{ template: { type: 'in_app', content: 'Hi {{payload.n}}' } }] })
        .expect(201)
    ).body.data;
    await api.put(`/v1/workflows/${wf._id}`).send({ description: 'changed' }).expect(200);
    // preference.updated
    const subscriberId = uniqueName('sub');
    await api.post('/v2/subscribers').send({ subscriberId }).expect(201);
    await api
      .patch(`/v2/subscribers/${subscriberId}/preferences`)
      .send({ channels: { email: false } })
      .expect(200);
    // message.sent (in-app)
    const sent = (
      await api
        .post('/v1/events/trigger')
        .send({ name: identifier, to: subscriberId, payload: { n: 1 } })
        .expect(201)
    ).body.data;
    // message.failed (a chat webhook answering 400)
    const chat = (await api.post('/v1/integrations').send({ providerId: 'chat-webhook', channel: 'chat', active: true, credentials: {} }).expect(201)).body
      .data;
    await api
      .put(`/v1/subscribers/${subscriberId}/credentials`)
      .send({ providerId: 'chat-webhook', integrationIdentifier: chat.identifier, credentials: { webhookUrl: receiver.url('/chat-fail') } })
      .expect(200);
    const chatWf = uniqueName('chatwf').toLowerCase();
    await api
      .post('/v1/workflows')
      .send({ name: chatWf, identifier: chatWf, active: true, steps: [{ template: { type: 'chat', content: 'boom' } }] })
      .expect(201);
    const failed = (await api.post('/v1/events/trigger').send({ name: chatWf, to: subscriberId }).expect(201)).body.data;
    await api.delete(`/v1/workflows/${wf._id}`).expect(200);

    const expected = ['workflow.created', 'workflow.updated', 'preference.updated', 'message.sent', 'workflow.created', 'message.failed', 'workflow.deleted'];
    const received = await waitFor(async () => eventsAt(receiver, path).length >= expected.length && eventsAt(receiver, path));
    const events = received.map((request) => ({ request, event: verifyBoth(request, all.secret) }));
    expect(events.map((e) => e.event.type).sort()).toEqual([...expected].sort());
    // each event once: one webhook-id each, the same in svix-id
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(expected.length);
    for (const { request } of events) {
      expect(request.headers['svix-id']).toBe(request.headers['webhook-id']);
      expect(request.headers['svix-timestamp']).toBe(request.headers['webhook-timestamp']);
      expect(request.headers['svix-signature']).toBe(request.headers['webhook-signature']);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    }
    const byType = (type: string) => events.filter((e) => e.event.type === type).map((e) => e.event);
    const [messageSent] = byType('message.sent');
    expect(messageSent).toMatchObject({
      data: { object: { transactionId: sent.transactionId, channel: 'in_app', status: 'sent', subscriberId, content: 'Hi 1' } },
    });
    expect(new Date(messageSent.timestamp).toISOString()).toBe(messageSent.timestamp);
    const [messageFailed] = byType('message.failed');
    expect(messageFailed).toMatchObject({
      data: { object: { transactionId: failed.transactionId, channel: 'chat', status: 'error' }, error: { code: 'unexpected_provider_error' } },
    });
    expect(messageFailed.data.object).not.toHaveProperty('directWebhookUrl');
    const [updated] = byType('workflow.updated');
    expect(updated.data).toMatchObject({ object: { _id: wf._id, description: 'changed' }, previousObject: { _id: wf._id, description: '' } });
    const [preference] = byType('preference.updated');
    expect(preference.data).toMatchObject({
      object: { subscriberId, preferences: { global: { channels: { email: false } } } },
      previousObject: { subscriberId },
    });
    expect(preference.data.previousObject.preferences.global.channels.email).not.toBe(false);
    expect(byType('workflow.deleted')[0].data.object).toMatchObject({ _id: wf._id, workflowId: identifier });

    // eventTypes: only what the endpoint asked for
    const deletedOnly = await waitFor(async () => eventsAt(receiver, `${path}-deleted`).length > 0 && eventsAt(receiver, `${path}-deleted`));
    expect(deletedOnly.map((r) => verifyBoth(r, onlyDeleted.secret).type)).toEqual(['workflow.deleted']);
    // a wrong secret does not verify
    expect(() =>
      new SvixWebhook(onlyDeleted.secret).verify(received[0].rawBody, Object.fromEntries(Object.entries(received[0].headers).map(([k, v]) => [k, String(v)]))),
    ).toThrow();

    // the attempts log says what the endpoint answered, and how fast
    const log = await attempts(api, all._id);
    expect(log).toHaveLength(expected.length);
    for (const entry of log) expect(entry).toMatchObject({ statusCode: 204, success: true, attempt: 1, latencyMs: expect.any(Number) });
    expect(log.map((e) => e.event).sort()).toEqual([...expected].sort());
  });

  it('retries a failing endpoint with the same webhook-id, logging each attempt, until it answers', async () => {
    const api = await environment();
    const path = `/flaky-${uniqueName('f')}`;
    flakyFailures.set(path, 2);
    const created = await endpoint(api, path);
    const test = await api.post(`/v2/outbound-webhooks/endpoints/${created._id}/test`).send({ eventType: 'message.read' }).expect(202);
    const requests = await waitFor(async () => eventsAt(receiver, path).length >= 3 && eventsAt(receiver, path));
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([test.body.data.webhookId, test.body.data.webhookId, test.body.data.webhookId]);
    for (const request of requests) expect(verifyBoth(request, created.secret)).toMatchObject({ type: 'message.read', data: { object: { test: true } } });
    const log = await waitFor(async () => {
      const entries = await attempts(api, created._id);
      return entries.length === 3 && entries;
    });
    expect(log.map((e) => [e.attempt, e.statusCode, e.success])).toEqual([
      [3, 204, true],
      [2, 500, false],
      [1, 500, false],
    ]);
    expect(log[2]).toMatchObject({ event: 'message.read', webhookId: test.body.data.webhookId, error: 'The endpoint answered 500', response: 'try later' });
  });

  it('disables an endpoint after sustained failure, saying so in its attempts log; a disabled endpoint is sent nothing', async () => {
    const api = await environment();
    const path = `/down-${uniqueName('d')}`;
    const created = await endpoint(api, path);
    await api.post(`/v2/outbound-webhooks/endpoints/${created._id}/test`).send({}).expect(202);
    const disabled = await waitFor(async () => {
      const res = await api.get(`/v2/outbound-webhooks/endpoints/${created._id}`).expect(200);
      return res.body.data.disabled && res.body.data;
    });
    expect(disabled.disabledReason).toContain('sustained failure');
    expect(eventsAt(receiver, path)).toHaveLength(4); // the first attempt and three retries
    const log = await attempts(api, created._id);
    expect(log[0]).toMatchObject({ event: 'endpoint.disabled', success: false, error: expect.stringContaining('sustained failure') });
    expect(log.slice(1).map((e) => [e.attempt, e.statusCode])).toEqual([
      [4, 503],
      [3, 503],
      [2, 503],
      [1, 503],
    ]);
    // disabled: a workflow event is not sent; enabling again clears the reason
    const identifier = uniqueName('wf').toLowerCase();
    await api.post('/v1/workflows').send({ name: identifier, identifier, steps: [] }).expect(201);
    const enabled = await api.patch(`/v2/outbound-webhooks/endpoints/${created._id}`).send({ disabled: false }).expect(200);
    expect(enabled.body.data).not.toHaveProperty('disabledReason');
    expect(eventsAt(receiver, path)).toHaveLength(4);
  });

  it('rotates the secret: for 24 h both the old and the new secret verify, the answer shows the new one once', async () => {
    const api = await environment();
    const path = `/rotate-${uniqueName('r')}`;
    const created = await endpoint(api, path);
    const rotated = await api.post(`/v2/outbound-webhooks/endpoints/${created._id}/rotate-secret`).expect(201);
    const fresh = rotated.body.data.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(created.secret);
    await api.post(`/v2/outbound-webhooks/endpoints/${created._id}/test`).send({}).expect(202);
    const [request] = await waitFor(async () => eventsAt(receiver, path).length > 0 && eventsAt(receiver, path));
    expect((request.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(verifyBoth(request, fresh)).toMatchObject({ type: 'message.sent' });
    expect(verifyBoth(request, created.secret)).toMatchObject({ type: 'message.sent' });
    expect((await api.get(`/v2/outbound-webhooks/endpoints/${created._id}`).expect(200)).body.data).not.toHaveProperty('secret');
  });
});

jest.setTimeout(240_000);

/**
 * Production mode (api and worker processes, PostgreSQL, Redis/Bull): the worker is SIGKILLed
 * while the endpoint holds the only attempt of an event open; a new worker sends it again, under
 * the same webhook-id, and the event is not lost.
 */
describe('outbound webhooks, production mode: a worker killed mid-delivery loses no event', () => {
  let buildDir: string;
  let h: ServiceHarness;
  let receiver: LoopbackReceiver;

  beforeAll(async () => {
    buildDir = await buildService();
    // QUEUE_LOCK_SECONDS, QUEUE_STALLED_CHECK_SECONDS: the killed worker's job comes back in seconds, not the default 45.
    h = await ServiceHarness.create(buildDir, {
      env: {
        RECOVERY_AFTER_SECONDS: '2',
        WEBHOOK_RETRY_DELAYS: '200ms,200ms',
        WEBHOOK_TIMEOUT_SECONDS: '120',
        QUEUE_LOCK_SECONDS: '5',
        QUEUE_STALLED_CHECK_SECONDS: '2',
      },
    });
    receiver = await LoopbackReceiver.start();
    await h.startApi();
  }, 180_000);
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  }, 60_000);

  it('delivers the event after the worker is killed and replaced', async () => {
    let held = 0;
    // The first request is held open (never answered): the worker is killed while it waits.
    receiver.respond((_req, res) => {
      if (held++ === 0) return;
      res.writeHead(200).end('ok');
    });
    const created = await h.expect(201, 'POST', '/v2/outbound-webhooks/endpoints', { url: receiver.url('/crash'), eventTypes: ['message.sent'] });
    const secret = created.data.secret as string;
    const identifier = 'webhook-crash';
    await h.expect(201, 'POST', '/v1/workflows', { name: identifier, identifier, active: true, steps: [{ template: { type: 'in_app', content: 'Hello' } }] });
    const worker = await h.startWorker();
    const trigger = await h.expect(201, 'POST', '/v1/events/trigger', { name: identifier, to: 'crash-subscriber' });

    await waitFor(async () => receiver.requests.length === 1, 30_000);
    await worker.kill();
    await h.startWorker();
    const [first, second] = await waitFor(async () => receiver.requests.length >= 2 && receiver.requests, 120_000);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    const event = verifyBoth(second, secret);
    expect(event).toMatchObject({ type: 'message.sent', data: { object: { transactionId: trigger.data.transactionId, subscriberId: 'crash-subscriber' } } });
    const log = await waitFor(async () => {
      const res = await h.expect(200, 'GET', `/v2/outbound-webhooks/endpoints/${created.data._id}/attempts`);
      return res.data.length > 0 && res.data;
    });
    expect(log).toEqual([expect.objectContaining({ webhookId: first.headers['webhook-id'], statusCode: 200, success: true })]);
  });
});
