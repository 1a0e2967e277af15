import { createHmac } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import { describeEachStore, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/**
 * The Inbox API end to end (embedded mode, both stores): sessions and HMAC, tokens that reach only
 * their own subscriber's inbox on every route, expired and forged tokens, CORS, the socket, presence,
 * snoozes waking, and the server-side view of what the subscriber did.
 */
describeEachStore('Inbox API (%s)', (store) => {
  let t: TestApp;
  let baseUrl: string;
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };
  let identifier: string;
  let workflowIdentifier: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await startTestApp({ store, clock });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    identifier = (await t.api().get('/v1/environments/me').expect(200)).body.data.identifier;
    workflowIdentifier = uniqueName('inbox').toLowerCase();
    await t
      .api()
      .post('/v1/workflows')
      .send({
        name: workflowIdentifier,
        identifier: workflowIdentifier,
        active: true,
        tags: ['billing'],
        steps: [
          {
            template: {
              type: 'in_app',
              content: 'Invoice {{payload.n}}',
              cta: { type: 'redirect', action: { buttons: [{ type: 'primary', content: 'Pay' }] } },
            },
          },
        ],
      })
      .expect(201);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t.close();
  });

  const http = () => request(t.app.getHttpServer());
  async function session(subscriberId: string, extra: Record<string, unknown> = {}, application = identifier) {
    const res = await http()
      .post('/v1/inbox/session')
      .send({ applicationIdentifier: application, subscriber: { subscriberId }, ...extra });
    return res;
  }
  async function tokenOf(subscriberId: string, application = identifier) {
    const res = await session(subscriberId, {}, application);
    expect(res.status).toBe(201);
    return res.body.data.token as string;
  }
  const inbox = (token: string) => ({
    get: (path: string) => http().get(`/v1/inbox${path}`).set('Authorization', `Bearer ${token}`),
    post: (path: string) => http().post(`/v1/inbox${path}`).set('Authorization', `Bearer ${token}`),
    patch: (path: string) => http().patch(`/v1/inbox${path}`).set('Authorization', `Bearer ${token}`),
    delete: (path: string) => http().delete(`/v1/inbox${path}`).set('Authorization', `Bearer ${token}`),
  });
  async function deliver(subscriberId: string, token: string, n = 1, apiKey = t.apiKey) {
    await t.api(apiKey).post('/v1/events/trigger').send({ name: workflowIdentifier, to: subscriberId, payload: { n } }).expect(201);
    return waitFor(async () => {
      const res = await inbox(token).get('/notifications?limit=100');
      return res.body.data?.find((notification: any) => notification.body === `Invoice ${n}`);
    });
  }

  it('starts a session as Novu does and refuses unknown applications or a missing subscriber', async () => {
    const res = await session(uniqueName('s'));
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      token: expect.any(String),
      totalUnreadCount: 0,
      unreadCount: { total: 0, severity: { high: 0, medium: 0, low: 0, none: 0 } },
      removeNovuBranding: false,
      isDevelopmentMode: true,
      maxSnoozeDurationHours: 2160,
    });
    expect((await session('x', {}, 'no-such-app')).body).toMatchObject({ statusCode: 400, message: 'Please provide a valid app identifier' });
    expect((await http().post('/v1/inbox/session').send({ applicationIdentifier: identifier })).status).toBe(400);
    const legacy = await http()
      .post('/v1/inbox/session')
      .send({ applicationIdentifier: identifier, subscriberId: uniqueName('legacy') });
    expect(legacy.status).toBe(201);
  });

  it("keeps every route to the token's own subscriber and environment", async () => {
    const alice = uniqueName('alice');
    const aliceToken = await tokenOf(alice);
    const bobToken = await tokenOf(uniqueName('bob'));
    const other = await t.createEnvironment(uniqueName('Other'));
    const otherIdentifier = (await t.api(other.apiKey).get('/v1/environments/me').expect(200)).body.data.identifier;
    // HMAC is on outside Development: sign as the application's server would
    const otherHash = createHmac('sha256', other.apiKey).update(alice).digest('hex');
    const foreign = await session(alice, { subscriberHash: otherHash }, otherIdentifier);
    expect(foreign.status).toBe(201);
    const foreignToken = foreign.body.data.token as string;

    const notification = await deliver(alice, aliceToken, 1);
    for (const token of [bobToken, foreignToken]) {
      expect((await inbox(token).get('/notifications').expect(200)).body.data).toEqual([]);
      const counts = await inbox(token)
        .get(`/notifications/count?filters=${encodeURIComponent(JSON.stringify([{ read: false }]))}`)
        .expect(200);
      expect(counts.body.data).toEqual([{ count: 0, filter: { read: false } }]);
      for (const action of ['read', 'unread', 'archive', 'unarchive', 'unsnooze']) {
        await inbox(token).patch(`/notifications/${notification.id}/${action}`).expect(404);
      }
      await inbox(token)
        .patch(`/notifications/${notification.id}/snooze`)
        .send({ snoozeUntil: new Date(Date.now() + 60_000).toISOString() })
        .expect(404);
      await inbox(token).patch(`/notifications/${notification.id}/complete`).send({ actionType: 'primary' }).expect(404);
      await inbox(token).patch(`/notifications/${notification.id}/revert`).send({ actionType: 'primary' }).expect(404);
      await inbox(token).delete(`/notifications/${notification.id}/delete`).expect(404);
      for (const bulk of ['read', 'archive', 'read-archive', 'delete', 'seen']) await inbox(token).post(`/notifications/${bulk}`).send({}).expect(204);
    }
    const mine = (await inbox(aliceToken).get('/notifications').expect(200)).body.data;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ id: notification.id, isRead: false, isSeen: false, isArchived: false, to: { subscriberId: alice } });
    // the other environment's subscriber of the same subscriberId has its own (empty) preferences and inbox
    expect((await inbox(foreignToken).get('/preferences').expect(200)).body.data[0]).toMatchObject({ level: 'global' });
  });

  it('answers 401 to a missing, forged or expired token, to an API key on Inbox routes and to a token on API-key routes', async () => {
    const subscriberId = uniqueName('s');
    const token = await tokenOf(subscriberId);
    await http().get('/v1/inbox/notifications').expect(401);
    await inbox('not-a-token').get('/notifications').expect(401);
    const forged = await new SignJWT({ env: 'x', org: 'y', sid: subscriberId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('z')
      .setAudience('novu-inbox')
      .setIssuer('notify-service')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('some-other-secret-of-32-characters!!'));
    await inbox(forged).get('/notifications').expect(401);
    await http().get('/v1/inbox/notifications').set('Authorization', `ApiKey ${t.apiKey}`).expect(401);
    await http().get('/v1/inbox/notifications').set('Authorization', `Bearer ${t.apiKey}`).expect(401);
    await http().get('/v1/messages').set('Authorization', `Bearer ${token}`).expect(401);
    await inbox(token).get('/notifications').expect(200);
    offsetMs = 8 * 86_400_000; // past the default 7-day lifetime
    try {
      const expired = await inbox(token).get('/notifications').expect(401);
      expect(expired.body).toMatchObject({ statusCode: 401, message: 'Invalid or expired subscriber token' });
    } finally {
      offsetMs = 0;
    }
  });

  it('requires the subscriberHash when the environment turns HMAC on', async () => {
    const production = await t.createEnvironment(uniqueName('Production'));
    const me = (await t.api(production.apiKey).get('/v1/environments/me').expect(200)).body.data;
    expect(me.inboxHmac).toBe(true);
    const subscriberId = uniqueName('s');
    expect((await session(subscriberId, {}, me.identifier)).body).toMatchObject({ statusCode: 400, message: 'Please provide a valid HMAC hash' });
    const wrongKey = createHmac('sha256', t.apiKey).update(subscriberId).digest('hex');
    expect((await session(subscriberId, { subscriberHash: wrongKey }, me.identifier)).status).toBe(400);
    const otherSubscriber = createHmac('sha256', production.apiKey).update('someone-else').digest('hex');
    expect((await session(subscriberId, { subscriberHash: otherSubscriber }, me.identifier)).status).toBe(400);
    const right = createHmac('sha256', production.apiKey).update(subscriberId).digest('hex');
    expect((await session(subscriberId, { subscriberHash: right }, me.identifier)).status).toBe(201);
  });

  it('allows any origin on Inbox routes (preflight included) and none on API-key routes', async () => {
    const preflight = await http()
      .options('/v1/inbox/notifications')
      .set('Origin', 'https://app.example')
      .set('Access-Control-Request-Method', 'PATCH')
      .set('Access-Control-Request-Headers', 'authorization,content-type,novu-api-version,novu-client-version');
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(preflight.headers['access-control-allow-headers']).toMatch(/Novu-Client-Version/i);
    expect(preflight.headers['access-control-allow-methods']).toMatch(/PATCH/);
    const apiRoute = await http().get('/v1/messages').set('Origin', 'https://app.example').set('Authorization', `ApiKey ${t.apiKey}`);
    expect(apiRoute.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('pushes deliveries and counts over the socket, follows presence, wakes snoozes, and shows it all server side', async () => {
    const subscriberId = uniqueName('live');
    const token = await tokenOf(subscriberId);
    const refused = io(baseUrl, { transports: ['websocket'], query: { token: 'forged' }, reconnection: false });
    sockets.push(refused);
    await new Promise<void>((resolve) => refused.on('connect_error', () => resolve()));

    const socket = io(baseUrl, { transports: ['websocket'], query: { token }, reconnection: false });
    sockets.push(socket);
    const events: { event: string; payload: any }[] = [];
    socket.onAny((event, payload) => events.push({ event, payload }));
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    await waitFor(async () => (await t.api().get(`/v2/subscribers/${subscriberId}`)).body.data?.isOnline === true);

    const notification = await deliver(subscriberId, token, 7);
    const received = await waitFor(async () => events.find((e) => e.event === 'notification_received'));
    expect(received.payload.message).toMatchObject({
      _id: notification.id,
      content: 'Invoice 7',
      read: false,
      cta: { action: { buttons: [{ type: 'primary', content: 'Pay' }] } },
    });
    await waitFor(async () => events.find((e) => e.event === 'unread_count_changed' && e.payload.counts.total === 1));
    await waitFor(async () => events.find((e) => e.event === 'unseen_count_changed' && e.payload.unseenCount === 1));

    // the server marks it read: the subscriber's socket hears the count drop
    const marked = await t.api().post('/v1/messages/mark-as').send({ subscriberId, messageId: notification.id, markAs: 'read' }).expect(201);
    expect(marked.body.data[0]).toMatchObject({ _id: notification.id, read: true, seen: true, lastReadDate: expect.any(String) });
    await waitFor(async () => events.find((e) => e.event === 'unread_count_changed' && e.payload.counts.total === 0));

    // a snooze ends: the notification comes back as a new one
    events.length = 0;
    await inbox(token)
      .patch(`/notifications/${notification.id}/snooze`)
      .send({ snoozeUntil: new Date(Date.now() + 1500).toISOString() })
      .expect(200);
    const listed = await t.api().get(`/v1/messages?subscriberId=${subscriberId}`).expect(200);
    expect(listed.body.data[0]).toMatchObject({ snoozedUntil: expect.any(String), archived: false });
    const woke = await waitFor(async () => events.find((e) => e.event === 'notification_received'), 15_000);
    expect(woke.payload.message._id).toBe(notification.id);
    expect((await inbox(token).get('/notifications').expect(200)).body.data[0]).toMatchObject({ id: notification.id, isSnoozed: false });

    await t
      .api()
      .delete(`/v1/messages/${notification.id}`)
      .expect(200, { data: { acknowledged: true, status: 'deleted' } });
    await t.api().delete(`/v1/messages/${notification.id}`).expect(404);
    expect((await inbox(token).get('/notifications').expect(200)).body.data).toEqual([]);

    socket.disconnect();
    await waitFor(async () => (await t.api().get(`/v2/subscribers/${subscriberId}`)).body.data?.isOnline === false);
  });

  it('refuses malformed Inbox input with a 400, never a 500', async () => {
    const token = await tokenOf(uniqueName('s'));
    await inbox(token).get('/notifications?limit=0').expect(400);
    await inbox(token).get('/notifications?read=maybe').expect(400);
    await inbox(token).get('/notifications?data=notjson').expect(400);
    await inbox(token).get('/notifications/count?filters=notjson').expect(400);
    await inbox(token)
      .get(`/notifications/count?filters=${encodeURIComponent('[1]')}`)
      .expect(400);
    await inbox(token).post('/notifications/read').send({ data: '[1]' }).expect(400);
    await inbox(token).patch('/notifications/nope/snooze').send({ snoozeUntil: 'tomorrow' }).expect(422);
    await inbox(token).patch('/notifications/nope/complete').send({ actionType: 'tertiary' }).expect(422);
  });
});
