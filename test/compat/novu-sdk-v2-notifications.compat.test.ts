/**
 * `@novu/api`'s `subscribers.notifications.*` and `topics.subscriptions.*` against the service, in both
 * modes: every call goes through the SDK (its zod schemas validate each answer) and its effect is read
 * back through the SDK. The notifications are real in-app messages, delivered by triggering a workflow.
 * Workflows are created with plain HTTP (the SDK speaks /v2/workflows, which is not served).
 */
import { Novu } from '@novu/api';
import { AddressInfo } from 'node:net';
import { NOVU_API_VERSION, sdk, sdkFails } from '../support/novu-api';
import { StoreUnderTest, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const SETUPS: { name: string; store: StoreUnderTest; redis: boolean }[] = [
  { name: 'embedded: PGlite, the store queue', store: 'pglite', redis: false },
  { name: 'PostgreSQL + Redis/Bull', store: 'postgres', redis: true },
];

const HOUR = 3_600_000;

describe.each(SETUPS)(`@novu/api ${NOVU_API_VERSION}: subscriber notifications v2 and topic subscriptions ($name)`, ({ store, redis }) => {
  let t: TestApp;
  let novu: Novu;
  let baseUrl: string;
  /** The trigger identifier of a workflow with one in-app step (two buttons), tagged `billing`. */
  let workflow: string;

  beforeAll(async () => {
    t = await startTestApp({ store, redis });
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}`;
    novu = new Novu({ secretKey: t.apiKey, serverURL: baseUrl, retryConfig: { strategy: 'none' } });
    workflow = uniqueName('invoice').toLowerCase();
    const res = await fetch(`${baseUrl}/v1/workflows`, {
      method: 'POST',
      headers: { Authorization: `ApiKey ${t.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: workflow,
        identifier: workflow,
        active: true,
        tags: ['billing'],
        steps: [
          {
            template: {
              type: 'in_app',
              content: 'Invoice {{payload.n}}',
              cta: {
                type: 'redirect',
                action: {
                  buttons: [
                    { type: 'primary', content: 'Pay' },
                    { type: 'secondary', content: 'Later' },
                  ],
                },
              },
            },
          },
        ],
      }),
    });
    expect(res.status).toBe(201);
  });
  afterAll(() => t?.close());

  /**
   * A new subscriber with `count` in-app notifications, each delivered before the next is triggered (with
   * several fan-out jobs at once, triggers sent back to back may be delivered in another order); their
   * ids, newest first.
   */
  async function inbox(count: number, payload: (index: number) => Record<string, unknown> = (n) => ({ n })): Promise<{ subscriberId: string; ids: string[] }> {
    const subscriberId = uniqueName('sub');
    await sdk('subscribers.create', () => novu.subscribers.create({ subscriberId, firstName: 'Ada' }));
    let delivered: { id: string }[] = [];
    for (let index = 0; index < count; index++) {
      await sdk('trigger', () => novu.trigger({ workflowId: workflow, to: subscriberId, payload: payload(index) }));
      delivered = await waitFor(async () => {
        const page = await sdk('subscribers.notifications.list (delivery)', () => novu.subscribers.notifications.list({ subscriberId, limit: 100 }));
        return page.result.data.length === index + 1 && page.result.data;
      });
    }
    return { subscriberId, ids: delivered.map((notification) => notification.id) };
  }

  async function listed(
    subscriberId: string,
    filter: Omit<Parameters<Novu['subscribers']['notifications']['list']>[0], 'subscriberId'> = {},
  ): Promise<string[]> {
    const page = await sdk(`subscribers.notifications.list ${JSON.stringify(filter)}`, () =>
      novu.subscribers.notifications.list({ subscriberId, limit: 100, ...filter }),
    );
    return page.result.data.map((notification) => notification.id);
  }

  describe('subscribers.notifications', () => {
    it('list: newest first, in the Inbox shape, with cursor and offset pages and the filters the SDK sends', async () => {
      const { subscriberId, ids } = await inbox(3, (n) => ({ n, kind: n === 0 ? 'first' : 'later' }));
      const first = await sdk('subscribers.notifications.list limit 2', () => novu.subscribers.notifications.list({ subscriberId, limit: 2 }));
      expect(first.result.data.map((notification) => notification.id)).toEqual(ids.slice(0, 2));
      expect(first.result.hasMore).toBe(true);
      expect(first.result.data[0]).toMatchObject({
        body: 'Invoice 2',
        isRead: false,
        isSeen: false,
        isArchived: false,
        isSnoozed: false,
        channelType: 'in_app',
        severity: 'none',
        tags: ['billing'],
        data: { n: 2, kind: 'later' },
        to: { subscriberId, firstName: 'Ada' },
        workflow: { identifier: workflow, critical: false },
        primaryAction: { label: 'Pay', isCompleted: false },
        secondaryAction: { label: 'Later', isCompleted: false },
      });
      const second = await sdk('subscribers.notifications.list after', () => novu.subscribers.notifications.list({ subscriberId, limit: 2, after: ids[1] }));
      expect(second.result.data.map((notification) => notification.id)).toEqual([ids[2]]);
      expect(second.result.hasMore).toBe(false);
      expect(await listed(subscriberId, { limit: 1, offset: 2 })).toEqual([ids[2]]);

      expect(await listed(subscriberId, { data: JSON.stringify({ kind: 'first' }) })).toEqual([ids[2]]);
      expect(await listed(subscriberId, { severity: ['none'] })).toEqual(ids);
      expect(await listed(subscriberId, { severity: ['high', 'medium'] })).toEqual([]);
      expect(await listed(subscriberId, { read: false, seen: false, archived: false, snoozed: false })).toEqual(ids);
      expect(await listed(subscriberId, { read: true })).toEqual([]);
      const middle = Date.parse(first.result.data[1].createdAt);
      expect(await listed(subscriberId, { createdGte: middle })).toEqual(ids.slice(0, 2));
      expect(await listed(subscriberId, { createdLte: middle })).toEqual(ids.slice(1));
      expect(await listed(subscriberId, { createdGte: middle, createdLte: middle })).toEqual([ids[1]]);
    });

    it('count: one count per filter, in order, each with its filter as sent', async () => {
      const { subscriberId, ids } = await inbox(2);
      await sdk('subscribers.notifications.markAsRead', () => novu.subscribers.notifications.markAsRead({ subscriberId, notificationId: ids[0] }));
      const filters = [{ read: false }, { tags: ['billing'] }, { tags: { and: [{ or: ['other'] }] } }, { seen: true, severity: ['none'] }];
      const res = await sdk('subscribers.notifications.count', () => novu.subscribers.notifications.count(subscriberId, JSON.stringify(filters)));
      expect(res.result).toEqual([
        { count: 1, filter: filters[0] },
        { count: 2, filter: filters[1] },
        { count: 0, filter: filters[2] },
        { count: 1, filter: filters[3] },
      ]);
    });

    it('markAsRead, markAsUnread, markAsSeen (by ids) and markAllAsRead', async () => {
      const { subscriberId, ids } = await inbox(3);
      const read = await sdk('subscribers.notifications.markAsRead', () => novu.subscribers.notifications.markAsRead({ subscriberId, notificationId: ids[0] }));
      expect(read.result).toMatchObject({ id: ids[0], isRead: true, isSeen: true });
      expect(typeof read.result.readAt).toBe('string');
      const unread = await sdk('subscribers.notifications.markAsUnread', () =>
        novu.subscribers.notifications.markAsUnread({ subscriberId, notificationId: ids[0] }),
      );
      expect(unread.result).toMatchObject({ id: ids[0], isRead: false, isSeen: true });

      await sdk('subscribers.notifications.markAsSeen', () => novu.subscribers.notifications.markAsSeen({ notificationIds: [ids[1]] }, subscriberId));
      expect(await listed(subscriberId, { seen: true })).toEqual(ids.slice(0, 2));
      expect(await listed(subscriberId, { read: true })).toEqual([]);

      await sdk('subscribers.notifications.markAllAsRead', () => novu.subscribers.notifications.markAllAsRead({}, subscriberId));
      expect(await listed(subscriberId, { read: true })).toEqual(ids);
      expect(await listed(subscriberId, { seen: false })).toEqual([]);
    });

    it('archive, unarchive, archiveAllRead and archiveAll', async () => {
      const { subscriberId, ids } = await inbox(3);
      const archived = await sdk('subscribers.notifications.archive', () => novu.subscribers.notifications.archive({ subscriberId, notificationId: ids[0] }));
      expect(archived.result).toMatchObject({ id: ids[0], isArchived: true, isRead: true });
      expect(typeof archived.result.archivedAt).toBe('string');
      expect(await listed(subscriberId, { archived: true })).toEqual([ids[0]]);
      const back = await sdk('subscribers.notifications.unarchive', () => novu.subscribers.notifications.unarchive({ subscriberId, notificationId: ids[0] }));
      expect(back.result).toMatchObject({ id: ids[0], isArchived: false });
      expect(await listed(subscriberId, { archived: true })).toEqual([]);

      // ids[0] is read (archiving read it); ids[1] and ids[2] are not
      await sdk('subscribers.notifications.archiveAllRead', () => novu.subscribers.notifications.archiveAllRead({}, subscriberId));
      expect(await listed(subscriberId, { archived: true })).toEqual([ids[0]]);
      await sdk('subscribers.notifications.archiveAll', () => novu.subscribers.notifications.archiveAll({}, subscriberId));
      expect(await listed(subscriberId, { archived: true })).toEqual(ids);
      expect(await listed(subscriberId, { archived: false })).toEqual([]);
    });

    it('snooze takes the notification out of the feed, unsnooze brings it back; a snooze in the past is 400', async () => {
      const { subscriberId, ids } = await inbox(2);
      const until = new Date(Date.now() + HOUR);
      const snoozed = await sdk('subscribers.notifications.snooze', () =>
        novu.subscribers.notifications.snooze({ subscriberId, notificationId: ids[0], snoozeSubscriberNotificationDto: { snoozeUntil: until } }),
      );
      expect(snoozed.result).toMatchObject({ id: ids[0], isSnoozed: true });
      expect(Date.parse(snoozed.result.snoozedUntil!)).toBe(until.getTime());
      expect(await listed(subscriberId)).toEqual([ids[1]]);
      expect(await listed(subscriberId, { snoozed: true })).toEqual([ids[0]]);

      const woken = await sdk('subscribers.notifications.unsnooze', () => novu.subscribers.notifications.unsnooze({ subscriberId, notificationId: ids[0] }));
      expect(woken.result).toMatchObject({ id: ids[0], isSnoozed: false });
      expect(await listed(subscriberId)).toEqual(ids);

      await sdkFails('subscribers.notifications.snooze in the past', 400, () =>
        novu.subscribers.notifications.snooze({
          subscriberId,
          notificationId: ids[1],
          snoozeSubscriberNotificationDto: { snoozeUntil: new Date(Date.now() - HOUR) },
        }),
      );
    });

    it('completeAction and revertAction, primary and secondary', async () => {
      const { subscriberId, ids } = await inbox(1);
      const notificationId = ids[0];
      const done = await sdk('subscribers.notifications.completeAction primary', () =>
        novu.subscribers.notifications.completeAction({ subscriberId, notificationId, actionType: 'primary' }),
      );
      expect(done.result).toMatchObject({ primaryAction: { label: 'Pay', isCompleted: true }, secondaryAction: { isCompleted: false } });
      const reverted = await sdk('subscribers.notifications.revertAction primary', () =>
        novu.subscribers.notifications.revertAction({ subscriberId, notificationId, actionType: 'primary' }),
      );
      expect(reverted.result.primaryAction).toMatchObject({ isCompleted: false });
      const secondary = await sdk('subscribers.notifications.completeAction secondary', () =>
        novu.subscribers.notifications.completeAction({ subscriberId, notificationId, actionType: 'secondary' }),
      );
      expect(secondary.result).toMatchObject({ primaryAction: { isCompleted: false }, secondaryAction: { label: 'Later', isCompleted: true } });
      const [stored] = (await sdk('subscribers.notifications.list after actions', () => novu.subscribers.notifications.list({ subscriberId }))).result.data;
      expect(stored.secondaryAction?.isCompleted).toBe(true);
    });

    it('delete one, then deleteAll by data and all', async () => {
      const { subscriberId, ids } = await inbox(3, (n) => ({ n, kind: n === 1 ? 'marked' : 'plain' }));
      await sdk('subscribers.notifications.delete', () => novu.subscribers.notifications.delete({ subscriberId, notificationId: ids[0] }));
      expect(await listed(subscriberId)).toEqual(ids.slice(1));
      await sdkFails('subscribers.notifications.delete again', 404, () => novu.subscribers.notifications.delete({ subscriberId, notificationId: ids[0] }));

      await sdk('subscribers.notifications.deleteAll by data', () =>
        novu.subscribers.notifications.deleteAll({ data: JSON.stringify({ kind: 'marked' }) }, subscriberId),
      );
      expect(await listed(subscriberId)).toEqual([ids[2]]);
      await sdk('subscribers.notifications.deleteAll', () => novu.subscribers.notifications.deleteAll({}, subscriberId));
      expect(await listed(subscriberId)).toEqual([]);
    });

    it('feed and unseenCount (v1) read the same notifications', async () => {
      const { subscriberId, ids } = await inbox(2);
      await sdk('subscribers.notifications.markAsSeen', () => novu.subscribers.notifications.markAsSeen({ notificationIds: [ids[0]] }, subscriberId));
      const feed = await sdk('subscribers.notifications.feed', () => novu.subscribers.notifications.feed({ subscriberId, limit: 10 }));
      expect(feed.result.data.map((message) => message.id)).toEqual(ids);
      const unseen = await sdk('subscribers.notifications.unseenCount', () => novu.subscribers.notifications.unseenCount({ subscriberId }));
      expect(unseen.result.count).toBe(1);
    });

    it('errors: an unknown subscriber (404; 400 on count), an unknown notification, bad filters; a context filter matching none', async () => {
      const { subscriberId, ids } = await inbox(1);
      const nobody = uniqueName('nobody');
      await sdkFails('subscribers.notifications.list unknown subscriber', 404, () => novu.subscribers.notifications.list({ subscriberId: nobody }));
      await sdkFails('subscribers.notifications.count unknown subscriber', 400, () => novu.subscribers.notifications.count(nobody, '[{}]'));
      await sdkFails('subscribers.notifications.markAllAsRead unknown subscriber', 404, () => novu.subscribers.notifications.markAllAsRead({}, nobody));
      await sdkFails('subscribers.notifications.markAsRead unknown subscriber', 404, () =>
        novu.subscribers.notifications.markAsRead({ subscriberId: nobody, notificationId: ids[0] }),
      );
      const unknown = await sdkFails('subscribers.notifications.markAsRead unknown notification', 404, () =>
        novu.subscribers.notifications.markAsRead({ subscriberId, notificationId: '0123456789abcdef01234567' }),
      );
      expect(JSON.parse(unknown.body).message).toBe('Notification with id 0123456789abcdef01234567 is not found');
      await sdkFails('subscribers.notifications.count bad filters', 400, () => novu.subscribers.notifications.count(subscriberId, '{"read":false}'));

      // sent within no context: a context filter matches none of them, and a bulk change under it changes nothing
      expect(await listed(subscriberId, { contextKeys: ['tenant:acme'] })).toEqual([]);
      await sdk('subscribers.notifications.archiveAll contextKeys', () =>
        novu.subscribers.notifications.archiveAll({ contextKeys: ['tenant:acme'] }, subscriberId),
      );
      expect(await listed(subscriberId, { archived: false, read: false })).toEqual(ids);
      expect(await listed(subscriberId, { contextKeys: [] })).toEqual(ids);
    });
  });

  describe('topics.subscriptions', () => {
    it('create, list, update, getSubscription and delete', async () => {
      const key = uniqueName('topic');
      const subscriberId = uniqueName('member');
      await sdk('subscribers.create', () => novu.subscribers.create({ subscriberId }));
      await sdk('topics.create', () => novu.topics.create({ key, name: 'Billing' }));
      const created = await sdk('topics.subscriptions.create', () => novu.topics.subscriptions.create({ subscriberIds: [subscriberId] }, key));
      const identifier = `tk_${key}:si_${subscriberId}`;
      expect(created.result.data[0].identifier).toBe(identifier);
      const listed = await sdk('topics.subscriptions.list', () => novu.topics.subscriptions.list({ topicKey: key }));
      expect(listed.result.data.map((subscription) => subscription.identifier)).toEqual([identifier]);

      const plain = await sdk('topics.subscriptions.getSubscription before update', () => novu.topics.subscriptions.getSubscription(key, identifier));
      expect(plain.result).toEqual({ id: created.result.data[0].id, identifier, preferences: [] });

      const updated = await sdk('topics.subscriptions.update', () =>
        novu.topics.subscriptions.update({
          topicKey: key,
          identifier,
          updateTopicSubscriptionRequestDto: {
            name: 'Invoices only when large',
            preferences: [{ workflowId: workflow, condition: { '>': [{ var: 'payload.n' }, 100] } }],
          },
        }),
      );
      expect(updated.result).toMatchObject({ identifier, name: 'Invoices only when large' });

      const got = await sdk('topics.subscriptions.getSubscription', () => novu.topics.subscriptions.getSubscription(key, identifier));
      expect(got.result).toMatchObject({
        id: created.result.data[0].id,
        identifier,
        name: 'Invoices only when large',
        preferences: [{ subscriptionId: identifier, enabled: true, condition: { '>': [{ var: 'payload.n' }, 100] }, workflow: { identifier: workflow } }],
      });

      await sdkFails('topics.subscriptions.getSubscription unknown identifier', 404, () =>
        novu.topics.subscriptions.getSubscription(key, `tk_${key}:si_${uniqueName('nobody')}`),
      );
      await sdkFails('topics.subscriptions.getSubscription foreign identifier', 404, () => novu.topics.subscriptions.getSubscription(key, 'not-an-identifier'));
      await sdkFails('topics.subscriptions.getSubscription unknown topic', 404, () =>
        novu.topics.subscriptions.getSubscription(uniqueName('nope'), identifier),
      );

      await sdk('topics.subscriptions.delete', () => novu.topics.subscriptions.delete({ subscriberIds: [subscriberId] }, key));
      await sdkFails('topics.subscriptions.getSubscription after delete', 404, () => novu.topics.subscriptions.getSubscription(key, identifier));
    });
  });
});
