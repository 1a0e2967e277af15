import { createHmac } from 'node:crypto';
import { Novu } from '@novu/js';
import { ServiceHarness, buildService } from '../support/service-processes';
import { uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

/**
 * Novu's own Inbox client, @novu/js (headless in Node: global fetch and socket.io-client), against
 * the built service with only backendUrl and socketUrl changed: the embedded process, and
 * production mode, where the worker's socket events cross to the api process through Redis.
 */
jest.setTimeout(180_000);

type Service = { baseUrl: string; apiKey: string; request: ServiceHarness['request'] };

let buildDir: string;
beforeAll(async () => {
  buildDir = await buildService();
}, 240_000);

function inboxScenarios(name: string, start: (h: ServiceHarness) => Promise<void>, options: { sqlStore: boolean }) {
  describe(`@novu/js against the service: ${name}`, () => {
    let h: ServiceHarness;
    let s: Service;
    const clients: Novu[] = [];

    beforeAll(async () => {
      h = await ServiceHarness.create(buildDir);
      await start(h);
      s = { baseUrl: h.baseUrl, apiKey: h.apiKey, request: h.request.bind(h) };
    }, 240_000);

    afterAll(async () => {
      for (const client of clients) await client.socket.disconnect().catch(() => undefined);
      await h?.close();
    }, 60_000);

    async function api(method: string, path: string, body?: unknown) {
      const res = await s.request(method, path, body);
      if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    }

    async function workflow(steps: unknown[], extra: Record<string, unknown> = {}) {
      const identifier = uniqueName('inbox').toLowerCase();
      const created = await api('POST', '/v1/workflows', { name: identifier, identifier, active: true, steps, ...extra });
      return { id: created.data._id as string, identifier };
    }

    const inApp = (content: string) => ({
      template: {
        type: 'in_app',
        content,
        cta: {
          type: 'redirect',
          data: { url: '/orders/{{payload.order}}' },
          action: {
            buttons: [
              { type: 'primary', content: 'Accept' },
              { type: 'secondary', content: 'Decline' },
            ],
          },
        },
      },
    });

    function client(applicationIdentifier: string, subscriberId: string, extra: Record<string, unknown> = {}): Novu {
      const novu = new Novu({
        applicationIdentifier,
        subscriber: { subscriberId, firstName: 'Ada' },
        backendUrl: s.baseUrl,
        socketUrl: s.baseUrl,
        useCache: false,
        ...extra,
      });
      clients.push(novu);
      return novu;
    }

    it('runs a whole Inbox session: realtime delivery, list, counts, every mutation, preferences', async () => {
      const { data: environment } = await api('GET', '/v1/environments/me');
      expect(environment.identifier).toMatch(/^[\w-]{12}$/);
      const wf = await workflow([inApp('Order {{payload.order}} shipped')], { tags: ['orders'] });
      const subscriberId = uniqueName('sub');
      const novu = client(environment.identifier, subscriberId);

      const received: any[] = [];
      const unread: any[] = [];
      const connected = new Promise<void>((resolve) => novu.on('socket.connect.resolved' as never, ((event: any) => !event.error && resolve()) as never));
      novu.on('notifications.notification_received', ({ result }: any) => received.push(result));
      novu.on('notifications.unread_count_changed', ({ result }: any) => unread.push(result));
      await connected;

      await api('POST', '/v1/events/trigger', { name: wf.identifier, to: subscriberId, payload: { order: 'A-1' } });
      const [pushed] = await waitFor(async () => received.length > 0 && received, 10_000, 20);
      expect(pushed).toMatchObject({ body: 'Order A-1 shipped', isRead: false, isSeen: false, channelType: 'in_app', tags: ['orders'] });
      expect(pushed.primaryAction).toMatchObject({ label: 'Accept', isCompleted: false });
      expect(pushed.to.subscriberId).toBe(subscriberId);
      await waitFor(async () => unread.some((counts) => counts.total === 1), 10_000, 20);

      const list = await novu.notifications.list({ limit: 10 });
      expect(list.error).toBeUndefined();
      expect(list.data!.notifications.map((n) => n.id)).toEqual([pushed.id]);
      const [notification] = list.data!.notifications;
      expect(notification).toMatchObject({
        subject: undefined,
        body: 'Order A-1 shipped',
        workflow: { id: wf.id, identifier: wf.identifier },
        redirect: { url: '/orders/A-1' },
      });

      const severities = ['high', 'medium', 'low', 'none'];
      const counts = async () => {
        const res = await novu.notifications.count({
          filters: severities.map((severity) => ({ read: false, archived: false, snoozed: false, severity })) as never,
        });
        expect(res.error).toBeUndefined();
        const items = (res.data as any).counts as { count: number; filter: { severity: string } }[];
        expect(items.map((item) => item.filter.severity)).toEqual(severities);
        return items.reduce((sum, item) => sum + item.count, 0);
      };
      expect(await counts()).toBe(1);

      expect((await notification.read()).error).toBeUndefined();
      expect(await counts()).toBe(0);
      const server = async () => (await api('GET', `/v1/messages?subscriberId=${subscriberId}&channel=in_app`)).data[0];
      expect(await server()).toMatchObject({ read: true, seen: true, lastReadDate: expect.any(String), lastSeenDate: expect.any(String) });
      expect((await notification.unread()).error).toBeUndefined();
      expect(await counts()).toBe(1);
      expect((await notification.seen()).error).toBeUndefined();
      expect(await server()).toMatchObject({ seen: true });
      expect((await notification.archive()).error).toBeUndefined();
      expect(await server()).toMatchObject({ archived: true, read: true });
      expect((await novu.notifications.list({ archived: true })).data!.notifications.map((n) => n.id)).toEqual([notification.id]);
      expect((await notification.unarchive()).error).toBeUndefined();
      const snoozed = await notification.snooze(new Date(Date.now() + 3_600_000).toISOString());
      expect(snoozed.error).toBeUndefined();
      expect(snoozed.data).toMatchObject({ isSnoozed: true });
      expect((await novu.notifications.list({})).data!.notifications).toEqual([]);
      expect((await novu.notifications.list({ snoozed: true })).data!.notifications).toHaveLength(1);
      expect(await server()).toMatchObject({ snoozedUntil: expect.any(String) });
      expect((await notification.unsnooze()).error).toBeUndefined();
      const completed = await notification.completePrimary();
      expect(completed.error).toBeUndefined();
      expect(completed.data!.primaryAction).toMatchObject({ isCompleted: true });
      expect((await server()).cta.action).toMatchObject({ status: 'done', result: { type: 'primary' } });
      expect((await notification.revertPrimary()).data!.primaryAction).toMatchObject({ isCompleted: false });
      expect((await notification.completeSecondary()).data!.secondaryAction).toMatchObject({ isCompleted: true });

      // bulk actions, each on fresh notifications
      const more = async (n: number, listed: number) => {
        for (let i = 0; i < n; i++) await api('POST', '/v1/events/trigger', { name: wf.identifier, to: subscriberId, payload: { order: `B-${i}` } });
        await waitFor(async () => (await novu.notifications.list({ limit: 50 })).data!.notifications.length >= listed || undefined, 10_000);
      };
      await more(2, 3);
      expect((await novu.notifications.readAll()).error).toBeUndefined();
      expect(await counts()).toBe(0);
      expect((await novu.notifications.archiveAllRead()).error).toBeUndefined();
      expect((await novu.notifications.list({ archived: false })).data!.notifications).toEqual([]);
      expect((await novu.notifications.list({ archived: true })).data!.notifications).toHaveLength(3);
      expect((await novu.notifications.deleteAll()).error).toBeUndefined();
      expect((await novu.notifications.list({ archived: true })).data!.notifications).toEqual([]);
      await more(1, 1);
      expect((await novu.notifications.archiveAll()).error).toBeUndefined();
      expect((await novu.notifications.list({ archived: true })).data!.notifications).toHaveLength(1);
      const [archived] = (await novu.notifications.list({ archived: true })).data!.notifications;
      expect((await archived.delete()).error).toBeUndefined();
      expect(await counts()).toBe(0);

      // preferences: global first, then the workflow; a workflow switch is honoured by delivery
      const preferences = await novu.preferences.list();
      expect(preferences.error).toBeUndefined();
      const [global, ...perWorkflow] = preferences.data!;
      expect(global).toMatchObject({ level: 'global', channels: expect.objectContaining({ in_app: true }) });
      const mine = perWorkflow.find((p) => p.workflow?.identifier === wf.identifier)!;
      expect(mine).toMatchObject({ level: 'template', enabled: true, channels: { in_app: true } });
      const updated = await mine.update({ channels: { in_app: false } });
      expect(updated.error).toBeUndefined();
      expect(updated.data).toMatchObject({ channels: { in_app: false } });
      const again = (await novu.preferences.list()).data!.find((p) => p.workflow?.identifier === wf.identifier)!;
      expect(again.channels).toMatchObject({ in_app: false });
      const byApi = (await api('GET', `/v2/subscribers/${subscriberId}/preferences`)).data;
      expect(byApi.workflows.find((w: any) => w.workflow.identifier === wf.identifier).channels).toMatchObject({ in_app: false });
    });

    (options.sqlStore ? it : it.skip)(
      'refuses a session without the right subscriberHash once the environment requires HMAC, and accepts the right one' +
        (options.sqlStore ? '' : " (not here: it turns HMAC on through the store's SQL, which the embedded process keeps to itself)"),
      async () => {
        const { data: environment } = await api('GET', '/v1/environments/me');
        // Development starts with HMAC off; the CLI turns it on (here through the store, as the CLI does)
        await h.sql.query('UPDATE environments SET inbox_hmac = true WHERE id = $1', [environment._id]);
        try {
          const subscriberId = uniqueName('hmac');
          const wrong = await fetch(`${s.baseUrl}/v1/inbox/session`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ applicationIdentifier: environment.identifier, subscriber: { subscriberId } }),
          });
          expect(wrong.status).toBe(400);
          expect(((await wrong.json()) as { message: string }).message).toBe('Please provide a valid HMAC hash');
          const subscriberHash = createHmac('sha256', s.apiKey).update(subscriberId).digest('hex');
          const novu = client(environment.identifier, subscriberId, { subscriberHash });
          const list = await novu.notifications.list({});
          expect(list.error).toBeUndefined();
          expect(list.data!.notifications).toEqual([]);
        } finally {
          await h.sql.query('UPDATE environments SET inbox_hmac = false WHERE id = $1', [environment._id]);
        }
      },
    );
  });
}

inboxScenarios(
  'embedded mode (one process, PGlite)',
  async (h) => {
    await h.startEmbedded();
  },
  { sqlStore: false },
);

inboxScenarios(
  'production mode (api and worker processes, PostgreSQL and Redis)',
  async (h) => {
    await h.startApi();
    await h.startWorker();
  },
  { sqlStore: true },
);
