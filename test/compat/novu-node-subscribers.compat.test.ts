/**
 * Wire compatibility of `@novu/node` 2.x's subscriber calls: every call below goes through the real
 * package (`new Novu(apiKey, { backendUrl })`), which speaks Novu's v1 subscriber routes and hands back
 * the axios response (`res.data` is the body; success bodies are `{data: …}`, page-based lists are not
 * wrapped).
 *
 * Written and run against @novu/node 2.6.6 (the version in use is printed in the suite name).
 * Covered here: identify, update, get, list (pages), delete, bulkCreate, credentials (set, delete,
 * unset), online status, preferences (all, by level, per workflow, global), the subscriber's in-app
 * feed (feed, unseen count, mark as, mark all, button actions) and messages.deleteById. The rest of
 * the SDK is in novu-node.compat.test.ts.
 */
import { Novu } from '@novu/node';
import { AddressInfo } from 'node:net';
import { describeEachStore, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { NOVU_NODE_VERSION, refused } from '../support/novu-node';
import { waitFor } from '../support/wait-for';

type Channel = { providerId: string; credentials: { deviceTokens?: string[]; webhookUrl?: string } };

describeEachStore(`@novu/node ${NOVU_NODE_VERSION} subscribers against the service (%s)`, (store) => {
  let t: TestApp;
  let baseUrl: string;
  let novu: Novu;

  beforeAll(async () => {
    t = await startTestApp({ store });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    novu = new Novu(t.apiKey, { backendUrl: baseUrl });
    // Integrations the credential calls need (active, of the provider used).
    await novu.integrations.create('discord', { channel: 'chat' as never, active: true, identifier: uniqueName('discord') });
    await novu.integrations.create('expo', { channel: 'push' as never, active: true, credentials: { apiKey: 'expo-token' }, identifier: uniqueName('expo') });
  });
  afterAll(() => t?.close());

  /** An active workflow made through notification-templates; its `_id` and trigger identifier. */
  async function workflow(name: string, steps: unknown[], critical = false): Promise<{ id: string; identifier: string }> {
    const groups = await novu.notificationGroups.get();
    const res = await novu.notificationTemplates.create({ name, notificationGroupId: groups.data.data[0]._id, active: true, critical, steps: steps as never });
    return { id: res.data.data._id, identifier: res.data.data.triggers[0].identifier };
  }

  /** Triggers the workflow for one subscriber; the statuses of its jobs once none is left to run. */
  async function deliver(
    identifier: string,
    subscriberId: string,
    payload: Record<string, string | number> = { name: 'Ada' },
  ): Promise<{ transactionId: string; statuses: string[] }> {
    const { transactionId } = (await novu.trigger(identifier, { to: subscriberId, payload })).data.data;
    const statuses = await waitFor(async () => {
      const res = await fetch(`${baseUrl}/v1/notifications?transactionId=${transactionId}`, { headers: { Authorization: `ApiKey ${t.apiKey}` } });
      const [notification] = ((await res.json()) as { data: { jobs: { status: string }[] }[] }).data;
      const jobs = notification?.jobs.map((job) => job.status) ?? [];
      return jobs.length > 0 && jobs.every((status) => ['completed', 'canceled', 'failed'].includes(status)) && jobs;
    });
    return { transactionId, statuses };
  }

  describe('subscribers', () => {
    const subscriberId = uniqueName('node-sub');

    it('identify creates (201), a second identify updates the fields given', async () => {
      const created = await novu.subscribers.identify(subscriberId, {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        data: { plan: 'pro' },
      });
      expect(created.status).toBe(201);
      expect(created.data.data).toMatchObject({
        subscriberId,
        firstName: 'Ada',
        email: 'ada@example.com',
        data: { plan: 'pro' },
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        _environmentId: expect.any(String),
        channels: [],
        deleted: false,
      });
      const again = await novu.subscribers.identify(subscriberId, { lastName: 'King' });
      expect(again.status).toBe(201);
      expect(again.data.data).toMatchObject({ _id: created.data.data._id, firstName: 'Ada', lastName: 'King' });
    });

    it('identify with channels adds their credentials; one refused is a 400 after the profile is written', async () => {
      const withChannels = uniqueName('node-channels');
      const res = await novu.subscribers.identify(withChannels, {
        channels: [{ providerId: 'expo' as never, credentials: { deviceTokens: ['token-1'] } }],
      });
      expect(res.data.data.channels).toEqual([expect.objectContaining({ providerId: 'expo', credentials: { deviceTokens: ['token-1'] } })]);
      // no active fcm integration: 400, the profile written already (as Novu)
      const refusedChannel = uniqueName('node-no-fcm');
      await refused('identify with an fcm channel', 400, () =>
        novu.subscribers.identify(refusedChannel, { firstName: 'F', channels: [{ providerId: 'fcm' as never, credentials: { deviceTokens: ['t'] } }] }),
      );
      expect((await novu.subscribers.get(refusedChannel)).data.data).toMatchObject({ firstName: 'F', channels: [] });
    });

    it('get; 404 for an unknown subscriber', async () => {
      const res = await novu.subscribers.get(subscriberId);
      expect(res.status).toBe(200);
      expect(res.data.data).toMatchObject({ subscriberId, lastName: 'King' });
      await refused('subscribers.get unknown', 404, () => novu.subscribers.get(uniqueName('nobody')));
    });

    it('update (PUT) changes the fields given; 404 for an unknown subscriber', async () => {
      const res = await novu.subscribers.update(subscriberId, { phone: '+14155550100', locale: 'en-GB', data: { plan: 'team' } });
      expect(res.status).toBe(200);
      expect(res.data.data).toMatchObject({ subscriberId, firstName: 'Ada', phone: '+14155550100', locale: 'en-GB', data: { plan: 'team' } });
      await refused('subscribers.update unknown', 404, () => novu.subscribers.update(uniqueName('nobody'), { firstName: 'X' }));
    });

    it('list: page-based, oldest first, hasMore while a later page holds any (an environment of its own)', async () => {
      const other = await t.createEnvironment(uniqueName('List'));
      const client = new Novu(other.apiKey, { backendUrl: baseUrl });
      const ids = Array.from({ length: 5 }, (_, i) => `list-${i}`);
      for (const id of ids) await client.subscribers.identify(id, { firstName: id });
      const first = await client.subscribers.list(0, 2);
      expect(first.status).toBe(200);
      expect(first.data).toEqual({
        page: 0,
        pageSize: 2,
        hasMore: true,
        data: [expect.objectContaining({ subscriberId: 'list-0' }), expect.objectContaining({ subscriberId: 'list-1' })],
      });
      const last = await client.subscribers.list(2, 2);
      expect(last.data).toMatchObject({ page: 2, pageSize: 2, hasMore: false });
      expect(last.data.data.map((s: { subscriberId: string }) => s.subscriberId)).toEqual(['list-4']);
      const defaults = await client.subscribers.list();
      expect(defaults.data).toMatchObject({ page: 0, pageSize: 10, hasMore: false });
      expect(defaults.data.data.map((s: { subscriberId: string }) => s.subscriberId)).toEqual(ids);
      await refused('subscribers.list limit 101', 422, () => client.subscribers.list(0, 101));
    });

    it('bulkCreate: created, updated (an existing one, and a repeat within the list), failed', async () => {
      const [a, b] = [uniqueName('bulk-a'), uniqueName('bulk-b')];
      const res = await novu.subscribers.bulkCreate([
        { subscriberId: a, firstName: 'A', email: 'a@example.com' },
        { subscriberId: b, firstName: 'B' },
        { subscriberId, firstName: 'Augusta' },
        { subscriberId: b, lastName: 'Again' },
      ]);
      expect(res.status).toBe(201);
      expect(res.data.data).toEqual({
        created: [{ subscriberId: a }, { subscriberId: b }],
        updated: [{ subscriberId }, { subscriberId: b }],
        failed: [],
      });
      expect((await novu.subscribers.get(b)).data.data).toMatchObject({ firstName: 'B', lastName: 'Again' });
      expect((await novu.subscribers.get(subscriberId)).data.data).toMatchObject({ firstName: 'Augusta', lastName: 'King' });
    });

    it('bulkCreate: an entry whose credentials cannot be stored is listed under failed; its profile is written', async () => {
      const c = uniqueName('bulk-c');
      const res = await novu.subscribers.bulkCreate([
        { subscriberId: c, firstName: 'C', channels: [{ providerId: 'fcm' as never, credentials: { deviceTokens: ['t'] } }] },
      ]);
      expect(res.data.data).toEqual({ created: [{ subscriberId: c }], updated: [], failed: [{ subscriberId: c, message: expect.stringContaining('fcm') }] });
      expect((await novu.subscribers.get(c)).data.data.firstName).toBe('C');
    });

    it('bulkCreate with more than 500 subscribers is refused whole (422)', async () => {
      const body = await refused('bulkCreate 501', 422, () =>
        novu.subscribers.bulkCreate(Array.from({ length: 501 }, (_, i) => ({ subscriberId: `too-many-${i}` }))),
      );
      expect(JSON.stringify(body.errors)).toContain('subscribers must contain no more than 500 elements');
    });

    it('setCredentials, deleteCredentials (204) and unsetCredentials', async () => {
      const chat = await novu.subscribers.setCredentials(subscriberId, 'discord', { webhookUrl: 'https://discord.example.com/api/webhooks/1/abc' });
      expect(chat.status).toBe(200);
      expect(chat.data.data.channels).toEqual([
        expect.objectContaining({ providerId: 'discord', credentials: { webhookUrl: 'https://discord.example.com/api/webhooks/1/abc' } }),
      ]);
      const push = await novu.subscribers.setCredentials(subscriberId, 'expo', { deviceTokens: ['token-a', 'token-b'] });
      expect(push.data.data.channels.map((c: Channel) => c.providerId).sort()).toEqual(['discord', 'expo']);

      const removed = await novu.subscribers.deleteCredentials(subscriberId, 'discord');
      expect(removed.status).toBe(204);
      const unset = await novu.subscribers.unsetCredentials(subscriberId, 'expo');
      expect(unset.data.data.channels).toEqual([expect.objectContaining({ providerId: 'expo', credentials: { deviceTokens: [] } })]);
      await refused('setCredentials unknown subscriber', 400, () => novu.subscribers.setCredentials(uniqueName('nobody'), 'expo', { deviceTokens: ['x'] }));
    });

    it('updateOnlineStatus (the SDK sends `online`): isOnline and lastOnlineAt; 404 for an unknown subscriber', async () => {
      const online = await novu.subscribers.updateOnlineStatus(subscriberId, true);
      expect(online.status).toBe(200);
      expect(online.data.data).toMatchObject({ subscriberId, isOnline: true });
      const offline = await novu.subscribers.updateOnlineStatus(subscriberId, false);
      expect(offline.data.data).toMatchObject({ subscriberId, isOnline: false, lastOnlineAt: expect.any(String) });
      await refused('updateOnlineStatus unknown', 404, () => novu.subscribers.updateOnlineStatus(uniqueName('nobody'), true));
    });

    it('delete answers {acknowledged, status: deleted}; then get is a 404', async () => {
      const res = await novu.subscribers.delete(subscriberId);
      expect(res.status).toBe(200);
      expect(res.data).toEqual({ data: { acknowledged: true, status: 'deleted' } });
      await refused('subscribers.get deleted', 404, () => novu.subscribers.get(subscriberId));
      await refused('subscribers.delete deleted', 404, () => novu.subscribers.delete(subscriberId));
    });
  });
  describe('preferences', () => {
    const subscriberId = uniqueName('node-prefs');
    const inApp = { template: { type: 'in_app', content: 'Hello {{payload.name}}' } };
    let news: { id: string; identifier: string };
    let critical: { id: string; identifier: string };

    beforeAll(async () => {
      await novu.subscribers.identify(subscriberId, { firstName: 'Ada' });
      news = await workflow(uniqueName('Node news'), [inApp]);
      critical = await workflow(uniqueName('Node security'), [inApp], true);
    });

    it('getPreference: each active workflow in the v1 shape, critical ones included', async () => {
      const res = await novu.subscribers.getPreference(subscriberId);
      expect(res.status).toBe(200);
      const byId = new Map(res.data.data.map((entry: { template: { _id: string } }) => [entry.template._id, entry]));
      expect(byId.get(news.id)).toEqual({
        template: { _id: news.id, name: expect.any(String), critical: false, triggers: [{ type: 'event', identifier: news.identifier }] },
        preference: { enabled: true, channels: { in_app: true }, overrides: [{ channel: 'in_app', source: 'template' }] },
      });
      expect(byId.get(critical.id)).toMatchObject({ template: { critical: true } });
      const withFlag = await novu.subscribers.getPreference(subscriberId, { includeInactiveChannels: false });
      expect(withFlag.data.data).toHaveLength(res.data.data.length);
      await refused('getPreference unknown subscriber', 404, () => novu.subscribers.getPreference(uniqueName('nobody')));
    });

    it('getGlobalPreference and getPreferenceByLevel', async () => {
      const global = await novu.subscribers.getGlobalPreference(subscriberId);
      expect(global.data.data).toEqual([{ preference: { enabled: true, channels: { email: true, sms: true, in_app: true, chat: true, push: true } } }]);
      const template = await novu.subscribers.getPreferenceByLevel(subscriberId, 'template' as never);
      expect(template.data.data.map((entry: { template: { _id: string } }) => entry.template._id)).toContain(news.id);
      await refused('getPreferenceByLevel unknown level', 422, () => novu.subscribers.getPreferenceByLevel(subscriberId, 'everything' as never));
    });

    it('updatePreference of one channel: the step is then skipped', async () => {
      const res = await novu.subscribers.updatePreference(subscriberId, news.id, { channel: { type: 'in_app' as never, enabled: false } });
      expect(res.status).toBe(200);
      expect(res.data.data).toMatchObject({
        template: { _id: news.id },
        preference: { enabled: true, channels: { in_app: false }, overrides: [{ channel: 'in_app', source: 'subscriber' }] },
      });
      expect((await deliver(news.identifier, subscriberId)).statuses).toEqual(['canceled']);
      const back = await novu.subscribers.updatePreference(subscriberId, news.identifier, { channel: { type: 'in_app' as never, enabled: true } });
      expect(back.data.data.preference.channels).toEqual({ in_app: true });
    });

    it('updatePreference {enabled: false} turns the workflow off, channels kept; {enabled: true} back on', async () => {
      const off = await novu.subscribers.updatePreference(subscriberId, news.id, { enabled: false });
      expect(off.data.data.preference).toMatchObject({ enabled: false, channels: { in_app: true } });
      expect((await deliver(news.identifier, subscriberId)).statuses).toEqual(['canceled']);
      const on = await novu.subscribers.updatePreference(subscriberId, news.id, { enabled: true });
      expect(on.data.data.preference).toMatchObject({ enabled: true, channels: { in_app: true } });
      const { transactionId, statuses } = await deliver(news.identifier, subscriberId);
      expect(statuses).toEqual(['completed']);
      expect((await novu.messages.list({ transactionIds: [transactionId] })).data.data).toHaveLength(1);
    });

    it('updatePreference of a critical workflow is a 400, of an unknown one a 404', async () => {
      await refused('updatePreference critical', 400, () => novu.subscribers.updatePreference(subscriberId, critical.id, { enabled: false }));
      await refused('updatePreference unknown', 404, () => novu.subscribers.updatePreference(subscriberId, '000000000000000000000000', { enabled: false }));
    });

    it('updateGlobalPreference: channels everywhere, enabled for everything but critical workflows', async () => {
      const email = await novu.subscribers.updateGlobalPreference(subscriberId, { preferences: [{ type: 'email' as never, enabled: false }] });
      expect(email.status).toBe(200);
      expect(email.data.data).toEqual({ preference: { enabled: true, channels: { email: false, sms: true, in_app: true, chat: true, push: true } } });

      const off = await novu.subscribers.updateGlobalPreference(subscriberId, { enabled: false });
      expect(off.data.data.preference).toMatchObject({ enabled: false, channels: { email: false } });
      expect(
        (await novu.subscribers.getPreference(subscriberId)).data.data.find((e: { template: { _id: string } }) => e.template._id === news.id),
      ).toMatchObject({
        preference: { enabled: false },
      });
      expect((await deliver(news.identifier, subscriberId)).statuses).toEqual(['canceled']);
      expect((await deliver(critical.identifier, subscriberId)).statuses).toEqual(['completed']);

      const on = await novu.subscribers.updateGlobalPreference(subscriberId, { enabled: true, preferences: [{ type: 'email' as never, enabled: true }] });
      expect(on.data.data).toEqual({ preference: { enabled: true, channels: { email: true, sms: true, in_app: true, chat: true, push: true } } });
      expect((await deliver(news.identifier, subscriberId)).statuses).toEqual(['completed']);
    });
  });
  describe("the subscriber's in-app feed", () => {
    const subscriberId = uniqueName('node-feed');
    type FeedMessage = {
      _id: string;
      content: string;
      read: boolean;
      seen: boolean;
      payload: Record<string, unknown>;
      cta: { action?: Record<string, unknown> };
    };
    let ids: string[];

    beforeAll(async () => {
      await novu.subscribers.identify(subscriberId, { firstName: 'Feed' });
      const inbox = await workflow(uniqueName('Node feed'), [
        {
          template: { type: 'in_app', content: 'Item {{payload.n}}', cta: { type: 'redirect', action: { buttons: [{ type: 'primary', content: 'Accept' }] } } },
        },
      ]);
      // one at a time, so the feed's newest-first order is known
      for (const n of [1, 2, 3])
        expect((await deliver(inbox.identifier, subscriberId, { n, group: n === 2 ? 'even' : 'odd' })).statuses).toEqual(['completed']);
      const feed = await novu.subscribers.getNotificationsFeed(subscriberId, { limit: 10 });
      ids = feed.data.data.map((m: FeedMessage) => m._id);
    });

    it('getNotificationsFeed: page-based, newest first, Novu message shape; read, seen and payload filters', async () => {
      const first = await novu.subscribers.getNotificationsFeed(subscriberId, { page: 0, limit: 2 });
      expect(first.status).toBe(200);
      expect(first.data).toMatchObject({ page: 0, pageSize: 2, totalCount: 2, hasMore: true });
      expect(first.data.data.map((m: FeedMessage) => m.content)).toEqual(['Item 3', 'Item 2']);
      expect(first.data.data[0]).toMatchObject({
        _id: ids[0],
        channel: 'in_app',
        read: false,
        seen: false,
        subscriber: { subscriberId },
        cta: { action: { buttons: [{ type: 'primary', content: 'Accept' }] } },
      });
      const last = await novu.subscribers.getNotificationsFeed(subscriberId, { page: 1, limit: 2 });
      expect(last.data).toMatchObject({ page: 1, totalCount: 1, hasMore: false, data: [{ content: 'Item 1' }] });
      const even = await novu.subscribers.getNotificationsFeed(subscriberId, { payload: { group: 'even' } });
      expect(even.data.data.map((m: FeedMessage) => m.content)).toEqual(['Item 2']);
      expect((await novu.subscribers.getNotificationsFeed(subscriberId, { read: true })).data.data).toEqual([]);
      await refused('feed unknown subscriber', 400, () => novu.subscribers.getNotificationsFeed(uniqueName('nobody'), {}));
      const feeds = await refused('feed by feedIdentifier', 404, () => novu.subscribers.getNotificationsFeed(subscriberId, { feedIdentifier: 'news' }));
      expect(feeds.code).toBe('not_supported');
      for (const payload of ['not base64 json', Buffer.from('[1]').toString('base64')]) {
        const bad = await t.api().get(`/v1/subscribers/${subscriberId}/notifications/feed`).query({ payload }).expect(400);
        expect(bad.body.code).toBe('invalid_payload');
      }
    });

    it('getUnseenCount: {count}; seen=true counts the seen ones', async () => {
      const unseen = await novu.subscribers.getUnseenCount(subscriberId, false);
      expect(unseen.status).toBe(200);
      expect(unseen.data).toEqual({ data: { count: 3 } });
      expect((await novu.subscribers.getUnseenCount(subscriberId, true)).data.data.count).toBe(0);
      await refused('unseen unknown subscriber', 400, () => novu.subscribers.getUnseenCount(uniqueName('nobody'), false));
    });

    it('markMessageSeen, markMessageRead and markMessageAs (Novu older markAs route)', async () => {
      const seen = await novu.subscribers.markMessageSeen(subscriberId, ids[0]);
      expect(seen.status).toBe(201);
      expect(seen.data.data).toEqual([expect.objectContaining({ _id: ids[0], seen: true, read: false })]);
      expect((await novu.subscribers.getUnseenCount(subscriberId, false)).data.data.count).toBe(2);
      const read = await novu.subscribers.markMessageRead(subscriberId, ids[1]);
      expect(read.data.data).toEqual([expect.objectContaining({ _id: ids[1], seen: true, read: true })]);
      const both = await novu.subscribers.markMessageAs(subscriberId, ids[1], { read: false, seen: false });
      expect(both.data.data).toEqual([expect.objectContaining({ _id: ids[1], seen: false, read: false })]);
    });

    it('mark-as by markAs (one id or several); 404 for an unknown subscriber', async () => {
      const res = await fetch(`${baseUrl}/v1/subscribers/${subscriberId}/messages/mark-as`, {
        method: 'POST',
        headers: { Authorization: `ApiKey ${t.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ messageId: [ids[1], ids[2]], markAs: 'read' }),
      });
      expect(res.status).toBe(201);
      const body = (await res.json()) as { data: FeedMessage[] };
      expect(body.data.map((m) => [m._id, m.read]).sort()).toEqual(
        [
          [ids[1], true],
          [ids[2], true],
        ].sort(),
      );
      const unknown = await fetch(`${baseUrl}/v1/subscribers/${uniqueName('nobody')}/messages/mark-as`, {
        method: 'POST',
        headers: { Authorization: `ApiKey ${t.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ messageId: ids[1], markAs: 'read' }),
      });
      expect(unknown.status).toBe(404);
    });

    it('markAllMessagesAs: {data: how many changed}', async () => {
      const unread = await novu.subscribers.markAllMessagesAs(subscriberId, 'unread' as never);
      expect(unread.status).toBe(201);
      expect(unread.data).toEqual({ data: 2 });
      const read = await novu.subscribers.markAllMessagesAs(subscriberId, 'read' as never);
      expect(read.data).toEqual({ data: 3 });
      expect((await novu.subscribers.getUnseenCount(subscriberId, false)).data.data.count).toBe(0);
      const unseen = await novu.subscribers.markAllMessagesAs(subscriberId, 'unseen' as never);
      expect(unseen.data).toEqual({ data: 3 });
      expect((await novu.subscribers.getUnseenCount(subscriberId, false)).data.data.count).toBe(3);
      expect((await novu.subscribers.markAllMessagesAs(subscriberId, 'seen' as never)).data).toEqual({ data: 3 });
      await refused('mark-all unknown subscriber', 404, () => novu.subscribers.markAllMessagesAs(uniqueName('nobody'), 'read' as never));
    });

    it('markMessageActionSeen: done with a payload, then pending; 400 for a button the message lacks', async () => {
      const done = await novu.subscribers.markMessageActionSeen(subscriberId, ids[0], 'primary' as never, {
        status: 'done' as never,
        payload: { answer: 'yes' },
      });
      expect(done.status).toBe(201);
      expect(done.data.data).toMatchObject({ _id: ids[0], cta: { action: { status: 'done', result: { type: 'primary', payload: { answer: 'yes' } } } } });
      const pending = await novu.subscribers.markMessageActionSeen(subscriberId, ids[0], 'primary' as never, { status: 'pending' as never });
      expect(pending.data.data.cta.action).toMatchObject({ status: 'pending' });
      expect(pending.data.data.cta.action).not.toHaveProperty('result');
      await refused('action of a missing button', 400, () =>
        novu.subscribers.markMessageActionSeen(subscriberId, ids[0], 'secondary' as never, { status: 'done' as never }),
      );
      await refused('action of an unknown message', 404, () =>
        novu.subscribers.markMessageActionSeen(subscriberId, '000000000000000000000000', 'primary' as never, { status: 'done' as never }),
      );
    });

    it('messages.deleteById: {acknowledged, status: deleted}; the message leaves the feed; 404 once gone', async () => {
      const res = await novu.messages.deleteById(ids[2]);
      expect(res.status).toBe(200);
      expect(res.data).toEqual({ data: { acknowledged: true, status: 'deleted' } });
      expect((await novu.subscribers.getNotificationsFeed(subscriberId, {})).data.data.map((m: FeedMessage) => m._id)).toEqual([ids[0], ids[1]]);
      await refused('messages.deleteById again', 404, () => novu.messages.deleteById(ids[2]));
    });
  });
});
