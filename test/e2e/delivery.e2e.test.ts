import { createHmac } from 'node:crypto';
import { LoopbackReceiver } from '../../libs/providers/src/testing/loopback-receiver';
import { describeEachStore, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/** The delivery engine end to end in the embedded mode: HTTP trigger → queue → worker → records. */
describeEachStore('delivery engine, embedded mode (%s)', (store) => {
  let t: TestApp;
  let receiver: LoopbackReceiver;
  beforeAll(async () => {
    t = await startTestApp({ store });
    receiver = await LoopbackReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  async function createWorkflow(steps: unknown[], extra: Record<string, unknown> = {}): Promise<{ id: string; identifier: string }> {
    const identifier = uniqueName('wf').toLowerCase();
    const res = await t
      .api()
      .post('/v1/workflows')
      .send({ name: identifier, identifier, active: true, steps, ...extra })
      .expect(201);
    return { id: res.body.data._id, identifier };
  }

  const inApp = (content: string, extra: Record<string, unknown> = {}) => ({ template: { type: 'in_app', content }, ...extra });
  const chat = (content: string, extra: Record<string, unknown> = {}) => ({ template: { type: 'chat', content }, ...extra });

  async function trigger(body: Record<string, unknown>, status = 201) {
    return (await t.api().post('/v1/events/trigger').send(body).expect(status)).body;
  }

  // The fan-out creates inline subscribers asynchronously: until it has, their messages are a 404.
  async function messagesOf(query: Record<string, string>) {
    const res = await t
      .api()
      .get('/v1/messages')
      .query({ limit: '100', ...query });
    if (res.status === 404 && query.subscriberId) return { data: [] as any[] };
    expect(res.status).toBe(200);
    return res.body;
  }

  async function notificationsOf(transactionId: string) {
    const res = await t.api().get('/v1/notifications').query({ transactionId, limit: '100' }).expect(200);
    return res.body.data as any[];
  }

  const jobsSettled = (notifications: any[]) =>
    notifications.length > 0 &&
    notifications.every((n) => n.jobs.length > 0 && n.jobs.every((j: any) => ['completed', 'failed', 'canceled', 'merged', 'skipped'].includes(j.status)));

  it("filters the activity feed by channels, templates, emails and subscriberIds, as Novu's", async () => {
    const alerts = await createWorkflow([inApp('Alert')]);
    const receipts = await createWorkflow([chat('Receipt')]);
    const [ada, bob] = [uniqueName('ada'), uniqueName('bob')];
    await t
      .api()
      .post('/v2/subscribers')
      .send({ subscriberId: ada, email: `${ada}@example.com` })
      .expect(201);
    await t
      .api()
      .post('/v2/subscribers')
      .send({ subscriberId: bob, email: `${bob}@example.com` })
      .expect(201);
    const toAda = (await trigger({ name: alerts.identifier, to: ada })).data.transactionId;
    const toBob = (await trigger({ name: receipts.identifier, to: bob })).data.transactionId;
    const feed = async (query: string) => {
      const res = await t.api().get(`/v1/notifications?${query}`).expect(200);
      return res.body.data.map((n: any) => n.transactionId).sort();
    };
    await waitFor(async () => (await feed(`subscriberIds=${ada}&subscriberIds=${bob}`)).length === 2);
    expect(await feed(`subscriberIds=${ada}&subscriberIds=${bob}`)).toEqual([toAda, toBob].sort());
    expect(await feed(`channels=chat&subscriberIds=${ada}&subscriberIds=${bob}`)).toEqual([toBob]);
    expect(await feed(`templates=${alerts.id}`)).toEqual([toAda]);
    expect(await feed(`emails=${ada.toUpperCase()}@EXAMPLE.COM`)).toEqual([toAda]);
    expect(await feed(`emails=${ada}@example.com&subscriberIds=${bob}&channels=in_app&channels=chat`)).toEqual([toAda, toBob].sort());
    expect(await feed('emails=nobody@example.com')).toEqual([]);
    expect(await feed(`subscriberIds=${uniqueName('ghost')}`)).toEqual([]);
    const bad = await t.api().get('/v1/notifications?channels=fax').expect(422);
    expect(JSON.stringify(bad.body)).toContain('channels');
  });

  it('delivers an in-app message with rendered content and records the notification', async () => {
    const wf = await createWorkflow([
      inApp('Hello {{payload.name}}, {{subscriber.firstName}}!', { cta: { type: 'redirect', data: { url: '/x/{{payload.name}}' } } }),
    ]);
    const subscriberId = uniqueName('sub');
    const body = await trigger({ name: wf.identifier, to: { subscriberId, firstName: 'Ada' }, payload: { name: 'World' } });
    expect(body.data).toMatchObject({ acknowledged: true, status: 'processed' });
    const { transactionId } = body.data;
    expect(transactionId).toMatch(/^txn_/);
    const page = await waitFor(async () => {
      const p = await messagesOf({ subscriberId });
      return p.data.length === 1 && p;
    });
    expect(page.data[0]).toMatchObject({ channel: 'in_app', content: 'Hello World, Ada!', status: 'sent', transactionId, read: false, seen: false });
    const notifications = await waitFor(async () => {
      const n = await notificationsOf(transactionId);
      return jobsSettled(n) && n;
    });
    expect(notifications).toHaveLength(1);
    // the answer's activityFeedLink is this transaction's feed
    const linked = await t.api().get(body.data.activityFeedLink).expect(200);
    expect(linked.body.data.map((n: any) => n.transactionId)).toEqual([transactionId]);
    expect(notifications[0].jobs.map((j: any) => j.status)).toEqual(['completed']);
    expect(notifications[0].jobs[0].executionDetails.map((d: any) => d.detail)).toContain('Message sent');
    const single = await t.api().get(`/v1/notifications/${notifications[0]._id}`).expect(200);
    expect(single.body.data.transactionId).toBe(transactionId);
  });

  it('acknowledges a repeated transactionId and delivers nothing more', async () => {
    const wf = await createWorkflow([inApp('once')]);
    const subscriberId = uniqueName('sub');
    const transactionId = uniqueName('txn');
    const first = await trigger({ name: wf.identifier, to: subscriberId, transactionId });
    const second = await trigger({ name: wf.identifier, to: subscriberId, transactionId });
    expect(second.data).toEqual(first.data);
    await waitFor(async () => (await messagesOf({ subscriberId })).data.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await messagesOf({ subscriberId })).data).toHaveLength(1);
  });

  it('answers bad triggers with 4xx and a body that says what is wrong', async () => {
    const wf = await createWorkflow([inApp('x')]);
    const unknown = await trigger({ name: 'no-such-workflow', to: 'a' }, 422);
    expect(unknown.message).toBe('workflow_not_found');
    const badTo = await trigger({ name: wf.identifier, to: [{ email: 'no-id@example.com' }] }, 422);
    expect(Object.keys(badTo.errors)).toContain('to.0.subscriberId');
    const tooMany = await trigger({ name: wf.identifier, to: Array.from({ length: 101 }, (_, i) => `s${i}`) }, 422);
    expect(tooMany.errors.to.messages[0]).toMatch(/at most 100/);
    const noName = await trigger({ to: 'a' }, 422);
    expect(noName.errors.name).toBeDefined();
    const big = await trigger({ name: wf.identifier, to: 'a', payload: { blob: 'x'.repeat(530 * 1024) } }, 413);
    expect(big.message).toMatch(/exceeds the limit of 524288 bytes/);
    const tenant = await trigger({ name: wf.identifier, to: 'a', tenant: 'no-such-tenant' });
    expect(tenant.data.status).toBe('no_tenant_found');
  });

  it('answers trigger_not_active for an inactive workflow', async () => {
    const identifier = uniqueName('inactive').toLowerCase();
    await t
      .api()
      .post('/v1/workflows')
      .send({ name: identifier, identifier, active: false, steps: [inApp('x')] })
      .expect(201);
    expect((await trigger({ name: identifier, to: 'a' })).data.status).toBe('trigger_not_active');
  });

  it('delivers chat through a signed webhook, retrying a 5xx and failing at once on a 4xx', async () => {
    const secretKey = 'chat-secret';
    await t.api().post('/v1/integrations').send({ providerId: 'chat-webhook', channel: 'chat', active: true, credentials: { secretKey } }).expect(201);
    const wf = await createWorkflow([chat('Chat for {{payload.order}}')]);
    const subscriberId = uniqueName('chat');
    await t.api().post('/v2/subscribers').send({ subscriberId }).expect(201);
    await t
      .api()
      .put(`/v1/subscribers/${subscriberId}/credentials`)
      .send({ providerId: 'chat-webhook', credentials: { webhookUrl: receiver.url('/chat') } })
      .expect(200);

    let calls = 0;
    receiver.respond((_req, res) => {
      calls += 1;
      if (calls === 1) res.writeHead(503).end('busy');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"remote-1"}');
    });
    const { data } = await trigger({ name: wf.identifier, to: subscriberId, payload: { order: 42 } });
    const sent = await waitFor(async () => {
      const p = await messagesOf({ subscriberId, channel: 'chat' });
      return p.data[0]?.status === 'sent' && p.data[0];
    });
    expect(sent.content).toBe('Chat for 42');
    const deliveries = receiver.requests.filter((r) => r.path === '/chat');
    expect(deliveries).toHaveLength(2);
    const last = deliveries[1];
    expect(last.headers['x-novu-signature']).toBe(createHmac('sha256', secretKey).update(last.rawBody).digest('hex'));
    expect(deliveries[0].headers['idempotency-key']).toBe(deliveries[1].headers['idempotency-key']);
    const [notification] = await waitFor(async () => {
      const n = await notificationsOf(data.transactionId);
      return jobsSettled(n) && n;
    });
    const details = notification.jobs[0].executionDetails.map((d: any) => d.detail);
    expect(details).toEqual(expect.arrayContaining(['Provider error, retry scheduled', 'Message sent']));

    receiver.respond((_req, res) => res.writeHead(400).end('{"error":"bad"}'));
    const failed = await trigger({ name: wf.identifier, to: subscriberId, payload: { order: 43 } });
    const [failedNotification] = await waitFor(async () => {
      const n = await notificationsOf(failed.data.transactionId);
      return jobsSettled(n) && n;
    });
    expect(failedNotification.jobs[0].status).toBe('failed');
    const errored = (await messagesOf({ subscriberId, channel: 'chat', transactionId: failed.data.transactionId })).data[0];
    expect(errored.status).toBe('error');
    receiver.respond((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"ok"}'));
  });

  it('waits out a delay step, and cancels what has not been sent yet', async () => {
    const wf = await createWorkflow([{ template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'seconds' } }, inApp('after the delay')]);
    const subscriberId = uniqueName('delay');
    await trigger({ name: wf.identifier, to: subscriberId });
    const page = await waitFor(async () => {
      const p = await messagesOf({ subscriberId });
      return p.data.length === 1 && p;
    });
    expect(page.data[0].content).toBe('after the delay');

    const slow = await createWorkflow([{ template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } }, inApp('never')]);
    const other = uniqueName('cancel');
    const { data } = await trigger({ name: slow.identifier, to: other });
    await waitFor(async () => (await notificationsOf(data.transactionId))[0]?.jobs[0]?.status === 'delayed');
    const cancel = await t.api().delete(`/v1/events/trigger/${data.transactionId}`).expect(200);
    expect(cancel.body.data).toBe(true);
    const [notification] = await notificationsOf(data.transactionId);
    expect(notification.jobs.map((j: any) => j.status)).toEqual(['canceled', 'canceled']);
    expect((await messagesOf({ subscriberId: other })).data).toHaveLength(0);
  });

  it('merges 50 concurrent triggers into one digest', async () => {
    const wf = await createWorkflow([
      // The window is wide enough for all 50 to arrive on a loaded machine; late ones would rightly open a second digest.
      { template: { type: 'digest' }, metadata: { type: 'regular', amount: 8, unit: 'seconds' } },
      inApp('{{step.total_count}} events'),
    ]);
    const subscriberId = uniqueName('digest');
    await t.api().post('/v2/subscribers').send({ subscriberId }).expect(201);
    await Promise.all(Array.from({ length: 50 }, (_, i) => trigger({ name: wf.identifier, to: subscriberId, payload: { i } })));
    const page = await waitFor(async () => {
      const p = await messagesOf({ subscriberId });
      return p.data.length >= 1 && p;
    }, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const all = await messagesOf({ subscriberId });
    expect(all.data).toHaveLength(1);
    expect(page.data[0].content).toBe('50 events');
    // The 49 merged events: every job of theirs is `merged` (Novu's status), none canceled.
    const feed = await waitFor(async () => {
      const res = await t.api().get('/v1/notifications').query({ subscriberIds: subscriberId, limit: '100' }).expect(200);
      return res.body.data.length === 50 && res.body.data;
    });
    const statuses = feed.map((n: any) => n.jobs.map((j: any) => j.status).join(',')).sort();
    expect(statuses.filter((s: string) => s === 'merged,merged')).toHaveLength(49);
    expect(statuses.filter((s: string) => s.includes('canceled'))).toHaveLength(0);
  });

  it('respects preferences and step filters, and a critical workflow ignores opt-outs', async () => {
    const wf = await createWorkflow([
      inApp('filtered', { filters: [{ value: 'AND', children: [{ on: 'payload', field: 'vip', operator: 'EQUAL', value: 'true' }] }] }),
    ]);
    const subscriberId = uniqueName('pref');
    await t.api().post('/v2/subscribers').send({ subscriberId }).expect(201);
    const skipped = await trigger({ name: wf.identifier, to: subscriberId, payload: { vip: false } });
    const [filtered] = await waitFor(async () => {
      const n = await notificationsOf(skipped.data.transactionId);
      return jobsSettled(n) && n;
    });
    expect(filtered.jobs[0].status).toBe('canceled');
    expect(filtered.jobs[0].executionDetails.map((d: any) => d.detail)).toContain('Step was skipped based on steps conditions');

    await t
      .api()
      .patch(`/v2/subscribers/${subscriberId}/preferences`)
      .send({ channels: { in_app: false } })
      .expect(200);
    const optedOut = await trigger({ name: wf.identifier, to: subscriberId, payload: { vip: true } });
    const [gated] = await waitFor(async () => {
      const n = await notificationsOf(optedOut.data.transactionId);
      return jobsSettled(n) && n;
    });
    expect(gated.jobs[0].status).toBe('canceled');
    expect(gated.jobs[0].executionDetails.map((d: any) => d.detail)).toContain('Step filtered by subscriber global preferences');

    const critical = await createWorkflow([inApp('critical')], { critical: true });
    await trigger({ name: critical.identifier, to: subscriberId });
    await waitFor(async () => (await messagesOf({ subscriberId })).data.some((m: any) => m.content === 'critical'));
  });

  it('fans out to a topic, leaving out excluded subscribers and the actor', async () => {
    const wf = await createWorkflow([inApp('topic news')]);
    const topicKey = uniqueName('topic');
    const members = ['m1', 'm2', 'm3', 'm4'].map((m) => uniqueName(m));
    for (const subscriberId of members) await t.api().post('/v2/subscribers').send({ subscriberId }).expect(201);
    await t.api().post('/v2/topics').send({ key: topicKey, name: 'News' }).expect(201);
    const subscribed = await t.api().post(`/v2/topics/${topicKey}/subscriptions`).send({ subscriberIds: members });
    expect(subscribed.status).toBeLessThan(300);
    const { data } = await trigger({ name: wf.identifier, to: [{ type: 'Topic', topicKey, exclude: [members[0]] }], actor: members[1] });
    await waitFor(async () => (await messagesOf({ transactionId: data.transactionId })).data.length === 2);
    const recipients = new Set((await messagesOf({ transactionId: data.transactionId })).data.map((m: any) => m.subscriber?.subscriberId));
    expect(recipients).toEqual(new Set([members[2], members[3]]));
  });

  it('deletes the messages of a transaction (204) and answers 404 when nothing matches', async () => {
    const wf = await createWorkflow([inApp('to delete')]);
    const subscriberId = uniqueName('del');
    const { data } = await trigger({ name: wf.identifier, to: subscriberId });
    await waitFor(async () => (await messagesOf({ transactionId: data.transactionId })).data.length === 1);
    await t.api().delete(`/v1/messages/transaction/${data.transactionId}`).query({ channel: 'in_app' }).expect(204);
    expect((await messagesOf({ transactionId: data.transactionId })).data).toHaveLength(0);
    await t.api().delete(`/v1/messages/transaction/${data.transactionId}`).expect(404);
    await t.api().get('/v1/messages').query({ subscriberId: 'nobody-here' }).expect(404);
    await t.api().get('/v1/messages').query({ limit: '1001' }).expect(400);
  });

  it('keeps environments apart', async () => {
    const wf = await createWorkflow([inApp('mine')]);
    const subscriberId = uniqueName('iso');
    const { data } = await trigger({ name: wf.identifier, to: subscriberId });
    await waitFor(async () => (await messagesOf({ transactionId: data.transactionId })).data.length === 1);
    const other = await t.createEnvironment(uniqueName('Other'));
    const theirs = await t.api(other.apiKey).get('/v1/messages').query({ transactionId: data.transactionId }).expect(200);
    expect(theirs.body.data).toHaveLength(0);
    await t.api(other.apiKey).post('/v1/events/trigger').send({ name: wf.identifier, to: 'x' }).expect(422);
    const notification = (await notificationsOf(data.transactionId))[0];
    await t.api(other.apiKey).get(`/v1/notifications/${notification._id}`).expect(404);
  });
});
