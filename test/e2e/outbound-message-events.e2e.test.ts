import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { LoopbackReceiver, ReceivedRequest } from '../../libs/providers/src/testing/loopback-receiver';
import { SendgridFake } from '../fakes/email/sendgrid.fake';
import { SendGridSigner, SignedRequest } from '../fakes/vendor-event-signers';
import { StoreUnderTest, TestApp, startTestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/**
 * The message.* events that follow a delivery, end to end: the subscriber's marks (Novu's v1
 * mark-as routes and the Inbox API), deletions, a snooze woken by the sweep, and a vendor's signed
 * events. An endpoint on 127.0.0.1 verifies each with `standardwebhooks`; it fails the first
 * attempt of every event, so each arrives twice under one webhook-id. A repeated mark, a mark that
 * changes nothing and a replayed vendor event publish nothing.
 */
jest.setTimeout(120_000);

const MESSAGE_TYPES = [
  'message.delivered',
  'message.failed',
  'message.seen',
  'message.read',
  'message.unread',
  'message.archived',
  'message.unarchived',
  'message.snoozed',
  'message.unsnoozed',
  'message.deleted',
];

const SETUPS: { name: string; store: StoreUnderTest; redis: boolean }[] = [
  { name: 'embedded: PGlite, the store queue', store: 'pglite', redis: false },
  { name: 'PostgreSQL + Redis/Bull', store: 'postgres', redis: true },
];

describe.each(SETUPS)('outbound message events ($name)', ({ store, redis }) => {
  let t: TestApp;
  let receiver: LoopbackReceiver;
  let sendgrid: SendgridFake;
  const signer = new SendGridSigner();

  beforeAll(async () => {
    receiver = await LoopbackReceiver.start();
    const seen = new Set<string>();
    receiver.respond((req, res) => {
      const id = String(req.headers['webhook-id']);
      if (seen.has(id)) return void res.writeHead(204).end();
      seen.add(id);
      res.writeHead(500).end('first attempt refused');
    });
    sendgrid = new SendgridFake();
    await sendgrid.start();
    t = await startTestApp({ store, redis, env: { WEBHOOK_RETRY_DELAYS: '200ms,200ms' } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await sendgrid?.close();
  });

  const http = () => request(t.app.getHttpServer());

  /** The events at `path` once `count` distinct ones arrived twice each (the refused attempt, then the one answered). */
  async function eventsAt(path: string, secret: string, count: number) {
    const requests = await waitFor(async () => {
      const at = receiver.requests.filter((r) => r.path === path);
      const ids = new Map<string, ReceivedRequest[]>();
      for (const r of at) ids.set(String(r.headers['webhook-id']), [...(ids.get(String(r.headers['webhook-id'])) ?? []), r]);
      return ids.size >= count && [...ids.values()].every((attempts) => attempts.length === 2) && ids;
    }, 60_000);
    const verifier = new Webhook(secret);
    return [...requests].map(([id, [first, second]]) => {
      const headers = (r: ReceivedRequest) => Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));
      const event = verifier.verify(second.rawBody, headers(second)) as any;
      expect(verifier.verify(first.rawBody, headers(first))).toEqual(event);
      return { id, event };
    });
  }
  const tally = (events: { event: any }[]) => events.map(({ event }) => `${event.data.object._id} ${event.type}`).sort();

  async function environment() {
    const { apiKey, environmentId } = await t.createEnvironment(uniqueName('Env'));
    const api = t.api(apiKey);
    const path = `/events-${uniqueName('p')}`;
    const endpoint = (
      await api
        .post('/v2/outbound-webhooks/endpoints')
        .send({ url: receiver.url(path), eventTypes: MESSAGE_TYPES })
        .expect(201)
    ).body.data;
    return { api, apiKey, environmentId, path, secret: endpoint.secret as string };
  }

  it("publishes each change of a subscriber's in-app messages once: marks, bulk marks, archive, snooze (and its waking), deletions", async () => {
    const { api, apiKey, path, secret } = await environment();
    const identifier = (await api.get('/v1/environments/me').expect(200)).body.data.identifier;
    const workflow = uniqueName('wf').toLowerCase();
    await api
      .post('/v1/workflows')
      .send({ name: workflow, identifier: workflow, active: true, steps: [{ template: { type: 'in_app', content: 'Note {{payload.n}}' } }] })
      .expect(201);
    const subscriberId = uniqueName('sub');
    const transactions: string[] = [];
    for (const n of [1, 2, 3, 4])
      transactions.push((await api.post('/v1/events/trigger').send({ name: workflow, to: subscriberId, payload: { n } }).expect(201)).body.data.transactionId);
    const token = (
      await http()
        .post('/v1/inbox/session')
        .send({
          applicationIdentifier: identifier,
          subscriber: { subscriberId },
          subscriberHash: createHmac('sha256', apiKey).update(subscriberId).digest('hex'),
        })
        .expect(201)
    ).body.data.token;
    const inbox = {
      patch: (p: string, body: object = {}) => http().patch(`/v1/inbox${p}`).set('Authorization', `Bearer ${token}`).send(body).expect(200),
      post: (p: string) => http().post(`/v1/inbox${p}`).set('Authorization', `Bearer ${token}`).send({}).expect(204),
      delete: (p: string) => http().delete(`/v1/inbox${p}`).set('Authorization', `Bearer ${token}`).expect(204),
    };
    const feed = await waitFor(async () => {
      const res = await http().get('/v1/inbox/notifications?limit=10').set('Authorization', `Bearer ${token}`).expect(200);
      return res.body.data.length === 4 && res.body.data;
    });
    const byN = (n: number) => feed.find((item: any) => item.body === `Note ${n}`).id as string;
    const [m1, m2, m3, m4] = [1, 2, 3, 4].map(byN);
    const markAs = (messageId: string | string[], mark: string) =>
      api.post(`/v1/subscribers/${subscriberId}/messages/mark-as`).send({ messageId, markAs: mark }).expect(201);

    await markAs(m1, 'read'); // read and seen
    await markAs(m1, 'read'); // nothing new
    await markAs(m1, 'unread');
    await inbox.patch(`/notifications/${m1}/read`); // read again (seen already)
    await inbox.patch(`/notifications/${m1}/read`); // nothing new
    await api
      .post('/v1/messages/mark-as')
      .send({ subscriberId, messageId: [m2], markAs: 'seen' })
      .expect(201);
    await inbox.patch(`/notifications/${m2}/archive`); // archived and read
    await inbox.patch(`/notifications/${m2}/archive`); // nothing new
    await inbox.patch(`/notifications/${m2}/unarchive`);
    await inbox.patch(`/notifications/${m3}/snooze`, { snoozeUntil: new Date(Date.now() + 3_600_000).toISOString() });
    await inbox.patch(`/notifications/${m3}/unsnooze`);
    await inbox.patch(`/notifications/${m3}/unsnooze`); // nothing new
    await inbox.patch(`/notifications/${m3}/snooze`, { snoozeUntil: new Date(Date.now() + 1_000).toISOString() });
    // the sweep wakes it: back in the feed, unsnoozed
    await waitFor(async () => {
      const res = await http().get('/v1/inbox/notifications?limit=10').set('Authorization', `Bearer ${token}`).expect(200);
      return res.body.data.some((item: any) => item.id === m3);
    });
    await inbox.post('/notifications/read'); // m3 and m4: read and seen
    await inbox.post('/notifications/read'); // nothing new
    await inbox.delete(`/notifications/${m4}/delete`);
    await api.delete(`/v1/messages/${m3}`).expect(200);
    await api.delete(`/v1/messages/transaction/${transactions[0]}`).expect(204);

    const expected = [
      `${m1} message.read`,
      `${m1} message.seen`,
      `${m1} message.unread`,
      `${m1} message.read`,
      `${m1} message.deleted`,
      `${m2} message.seen`,
      `${m2} message.archived`,
      `${m2} message.read`,
      `${m2} message.unarchived`,
      `${m3} message.snoozed`,
      `${m3} message.unsnoozed`,
      `${m3} message.snoozed`,
      `${m3} message.unsnoozed`,
      `${m3} message.read`,
      `${m3} message.seen`,
      `${m3} message.deleted`,
      `${m4} message.read`,
      `${m4} message.seen`,
      `${m4} message.deleted`,
    ];
    const events = await eventsAt(path, secret, expected.length);
    expect(tally(events)).toEqual(expected.sort());
    for (const { event } of events) {
      expect(event.data.object).toMatchObject({ subscriberId, channel: 'in_app', templateIdentifier: workflow });
      expect(new Date(event.timestamp).toISOString()).toBe(event.timestamp);
    }
    const [unread] = events.filter(({ event }) => event.type === 'message.unread');
    expect(unread.event.data.object).toMatchObject({ _id: m1, read: false, seen: true });
    const archived = events.find(({ event }) => event.type === 'message.archived')!;
    expect(archived.event.data.object).toMatchObject({ _id: m2, archived: true, read: true });
  });

  it("publishes a vendor's delivered, open and bounce as message.delivered, message.seen and message.failed (with its reason), once each", async () => {
    const { api, environmentId, path, secret } = await environment();
    const integration = (
      await api
        .post('/v1/integrations')
        .send({
          providerId: 'sendgrid',
          channel: 'email',
          identifier: uniqueName('sendgrid'),
          credentials: { apiKey: sendgrid.apiKey, from: 'no-reply@example.com', senderName: 'Example', baseUrl: sendgrid.origin },
          active: true,
          configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: signer.verificationKey },
        })
        .expect(201)
    ).body.data;
    const workflow = uniqueName('wf').toLowerCase();
    await api
      .post('/v1/workflows')
      .send({
        name: workflow,
        identifier: workflow,
        active: true,
        steps: [{ template: { type: 'email', subject: 'Hi', content: [{ type: 'text', content: 'Hello' }] } }],
      })
      .expect(201);
    const subscriberId = uniqueName('sub');
    const email = `${subscriberId.toLowerCase()}@example.com`;
    await api.post('/v2/subscribers').send({ subscriberId, email }).expect(201);
    const { transactionId } = (await api.post('/v1/events/trigger').send({ name: workflow, to: subscriberId }).expect(201)).body.data;
    const sent = await waitFor(async () => {
      const [n] = (await api.get('/v1/notifications').query({ transactionId })).body.data ?? [];
      return n?.jobs[0]?.executionDetails.find((d: any) => d.detail === 'Message sent');
    });
    const vendorId = JSON.parse(sent.raw).id as string;
    const messageId = (await api.get('/v1/messages').query({ transactionId }).expect(200)).body.data[0]._id as string;

    const inbound = `/v2/inbound-webhooks/delivery-providers/${environmentId}/${integration._id}`;
    const post = async (signed: SignedRequest) => {
      const req = http().post(inbound);
      for (const [name, value] of Object.entries(signed.headers)) req.set(name, value);
      return (await req.send(signed.body).expect(200)).body.data;
    };
    const vendorEvent = (event: Record<string, unknown>) =>
      signer.sign([
        { email, timestamp: Math.floor(Date.now() / 1000), sg_event_id: randomBytes(8).toString('hex'), sg_message_id: `${vendorId}.filterdrecv-1`, ...event },
      ]);
    const delivered = vendorEvent({ event: 'delivered' });
    expect(await post(delivered)).toMatchObject({ recorded: 1 });
    expect(await post(delivered)).toMatchObject({ duplicates: 1 }); // the vendor's retry: nothing new
    expect(await post(vendorEvent({ event: 'open' }))).toMatchObject({ recorded: 1 });
    expect(await post(vendorEvent({ event: 'click' }))).toMatchObject({ recorded: 1 }); // seen already: the same event
    expect(await post(vendorEvent({ event: 'bounce', type: 'bounce', reason: '550 5.1.1 unknown user' }))).toMatchObject({ recorded: 1 });

    const events = await eventsAt(path, secret, 3);
    expect(tally(events)).toEqual([`${messageId} message.delivered`, `${messageId} message.failed`, `${messageId} message.seen`]);
    for (const { event } of events) expect(event.data.object).toMatchObject({ _id: messageId, subscriberId, channel: 'email', transactionId, email });
    const failed = events.find(({ event }) => event.type === 'message.failed')!;
    expect(failed.event.data.error).toEqual({ message: '550 5.1.1 unknown user', code: 'bounced' });
  });
});
