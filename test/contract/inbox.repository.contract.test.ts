import { ChainRepository, Message, MessageRepository } from '@app/delivery';
import { InboxChanged, InboxFilter, InboxRepository, UNREAD_FILTER } from '@app/inbox';
import { EnvironmentScope, newId } from '@app/kernel';
import { SubscriberRepository } from '@app/subscribers';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';
import { job, message, newScope, notification, tick } from './delivery-fixtures';

interface Stores {
  inbox: InboxRepository;
  chains: ChainRepository;
  messages: MessageRepository;
  subscribers: SubscriberRepository;
}

/** The InboxRepository contract; every store adapter must pass it. */
function inboxRepositoryContract(open: () => Promise<{ repository: Stores; close(): Promise<void> }>) {
  let stores: Stores;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository: stores, close } = await open()));
  afterAll(() => close());

  /** One in-app message (with its notification) per entry, oldest first. */
  async function feed(
    scope: EnvironmentScope,
    subscriberId: string,
    entries: { severity?: string; tags?: string[]; payload?: Record<string, unknown>; channel?: Message['channel']; contextKeys?: string[] }[],
  ) {
    const messages: Message[] = [];
    for (const entry of entries) {
      const n = notification(scope, { subscriberId, severity: entry.severity, payload: entry.payload ?? {}, contextKeys: entry.contextKeys });
      const j = job(n, 'in-app');
      const m = message(j, { tags: entry.tags, payload: entry.payload ?? {}, channel: entry.channel ?? 'in_app', deliveredAt: [tick()] });
      await stores.chains.write([{ kind: 'new', notification: n, jobs: [j], messages: [m], details: [] }]);
      messages.push(m);
    }
    return messages;
  }

  it("lists one subscriber's in-app messages newest first, with cursor pages and the notification's severity", async () => {
    const scope = newScope();
    const subscriber = newId();
    const [a, b, c] = await feed(scope, subscriber, [{ severity: 'high' }, {}, {}]);
    await feed(scope, subscriber, [{ channel: 'email' }]);
    await feed(scope, newId(), [{}]);
    await feed(newScope(), subscriber, [{}]);
    const first = await stores.inbox.list(scope, subscriber, {}, { limit: 2 });
    expect(first.items.map((i) => i.message.id)).toEqual([c.id, b.id]);
    expect(first.hasMore).toBe(true);
    const second = await stores.inbox.list(scope, subscriber, {}, { limit: 2, after: b.id });
    expect(second.items.map((i) => i.message.id)).toEqual([a.id]);
    expect(second.items[0].severity).toBe('high');
    expect(second.hasMore).toBe(false);
    expect((await stores.inbox.list(scope, subscriber, {}, { limit: 2, offset: 1 })).items.map((i) => i.message.id)).toEqual([b.id, a.id]);
    expect((await stores.inbox.list(scope, subscriber, {}, { limit: 2, after: newId() })).items).toEqual([]);
    expect(await stores.inbox.count(scope, subscriber, {})).toBe(3);
    expect(await stores.inbox.count(scope, subscriber, { severity: ['high'] })).toBe(1);
    expect(await stores.inbox.count(scope, subscriber, { severity: ['none'] })).toBe(2);
  });

  it('filters by tags (any), data (every key), read, seen, archived and snoozed', async () => {
    const scope = newScope();
    const subscriber = newId();
    const [tagged, data, plain] = await feed(scope, subscriber, [{ tags: ['billing', 'x'] }, { payload: { kind: 'order', n: 1 } }, {}]);
    expect((await stores.inbox.list(scope, subscriber, { tags: ['billing', 'other'] }, { limit: 10 })).items.map((i) => i.message.id)).toEqual([tagged.id]);
    expect((await stores.inbox.list(scope, subscriber, { data: { kind: 'order' } }, { limit: 10 })).items.map((i) => i.message.id)).toEqual([data.id]);
    expect(await stores.inbox.count(scope, subscriber, { data: { kind: 'order', n: 2 } })).toBe(0);
    const at = tick();
    expect(await stores.inbox.change(scope, subscriber, plain.id, { read: true, seen: true, at })).toMatchObject({
      message: { read: true, seen: true, lastReadDate: at, firstSeenDate: at },
      before: { read: false, seen: false, archived: false },
    });
    // a repeated change answers the state it found: already read
    expect((await stores.inbox.change(scope, subscriber, plain.id, { read: true, seen: true, at: tick() }))!.before).toMatchObject({ read: true, seen: true });
    expect(await stores.inbox.count(scope, subscriber, UNREAD_FILTER)).toBe(2);
    expect(await stores.inbox.count(scope, subscriber, { seen: false })).toBe(2);
    await stores.inbox.change(scope, subscriber, tagged.id, { archived: true, read: true, at });
    expect(await stores.inbox.count(scope, subscriber, { archived: true })).toBe(1);
    expect(await stores.inbox.change(scope, subscriber, tagged.id, { archived: false, at })).toMatchObject({ message: { archived: false } });
    const until = new Date(Date.now() + 3_600_000);
    const snoozed = await stores.inbox.change(scope, subscriber, data.id, { snoozedUntil: until, at });
    expect(snoozed!.message.snoozedUntil).toEqual(until);
    expect(snoozed!.before.snoozedUntil).toBeUndefined();
    expect(await stores.inbox.count(scope, subscriber, {})).toBe(2);
    expect(await stores.inbox.count(scope, subscriber, { snoozed: true })).toBe(1);
    expect(await stores.inbox.find(scope, subscriber, data.id)).not.toBeNull();
    const woken = await stores.inbox.change(scope, subscriber, data.id, { snoozedUntil: null, at });
    expect(woken!.message).not.toHaveProperty('snoozedUntil');
    expect(woken!.before.snoozedUntil).toEqual(until);
    const cta = { type: 'redirect', action: { status: 'done', buttons: [{ type: 'primary', content: 'Go' }], result: { type: 'primary', payload: {} } } };
    expect(await stores.inbox.change(scope, subscriber, data.id, { cta, at })).toMatchObject({ message: { cta } });
  });

  it('filters by the contexts a notification was sent within: exactly those, in any order', async () => {
    const scope = newScope();
    const subscriber = newId();
    const [acme, acmeJira, , globex] = await feed(scope, subscriber, [
      { contextKeys: ['tenant:acme'] },
      { contextKeys: ['app:jira', 'tenant:acme'] },
      {},
      { contextKeys: ['tenant:globex'] },
    ]);
    await feed(scope, newId(), [{ contextKeys: ['tenant:acme'] }]);
    const ids = async (filter: InboxFilter) => (await stores.inbox.list(scope, subscriber, filter, { limit: 10 })).items.map((i) => i.message.id);
    expect(await ids({ contextKeys: ['tenant:acme'] })).toEqual([acme.id]);
    expect(await ids({ contextKeys: ['tenant:acme', 'app:jira', 'tenant:acme'] })).toEqual([acmeJira.id]);
    expect(await ids({ contextKeys: ['tenant:nope'] })).toEqual([]);
    expect(await stores.inbox.count(scope, subscriber, { contextKeys: ['tenant:globex'] })).toBe(1);
    expect(await stores.inbox.count(scope, subscriber, { contextKeys: [] })).toBe(4);
    const changed = await stores.inbox.changeMany(scope, subscriber, { contextKeys: ['tenant:globex'] }, { read: true, at: tick() });
    expect(changed.map((c) => c.message.id)).toEqual([globex.id]);
    expect((await stores.inbox.deleteMany(scope, subscriber, { contextKeys: ['tenant:acme'] })).map((m) => m.id)).toEqual([acme.id]);
  });

  it('filters by creation time, both bounds inclusive', async () => {
    const scope = newScope();
    const subscriber = newId();
    const [a, b, c] = await feed(scope, subscriber, [{}, {}, {}]);
    const ids = async (filter: InboxFilter) => (await stores.inbox.list(scope, subscriber, filter, { limit: 10 })).items.map((i) => i.message.id);
    expect(await ids({ createdGte: b.createdAt })).toEqual([c.id, b.id]);
    expect(await ids({ createdLte: b.createdAt })).toEqual([b.id, a.id]);
    expect(await ids({ createdGte: b.createdAt, createdLte: b.createdAt })).toEqual([b.id]);
    expect(await stores.inbox.count(scope, subscriber, { createdGte: new Date(c.createdAt.getTime() + 1) })).toBe(0);
    const read = await stores.inbox.changeMany(scope, subscriber, { createdLte: a.createdAt }, { read: true, at: tick() });
    expect(read.map((changed) => changed.message.id)).toEqual([a.id]);
  });

  it('reads several messages by id and the badge counts of several subscribers at once', async () => {
    const scope = newScope();
    const [ann, bob, quiet] = [newId(), newId(), newId()];
    const [a1, a2] = await feed(scope, ann, [{ severity: 'high' }, {}]);
    const [b1] = await feed(scope, bob, [{}]);
    const [b2] = await feed(scope, bob, [{ channel: 'email' }]);
    await feed(newScope(), ann, [{}]);
    const found = await stores.inbox.findMany(scope, [a1.id, b1.id, b2.id, newId()]);
    expect(found.map((item) => item.message.id).sort()).toEqual([a1.id, b1.id].sort());
    expect(found.find((item) => item.message.id === a1.id)!.severity).toBe('high');
    const at = tick();
    await stores.inbox.change(scope, ann, a2.id, { seen: true, at });
    await stores.inbox.change(scope, bob, b1.id, { archived: true, read: true, seen: true, at });
    const counts = await stores.inbox.badgeCounts(scope, [ann, bob, quiet]);
    expect(counts.get(ann)).toEqual({ unread: { high: 1, none: 1 }, unseen: 1 });
    expect(counts.has(bob)).toBe(false);
    expect(counts.has(quiet)).toBe(false);
  });

  it("never reaches another subscriber's or environment's messages", async () => {
    const scope = newScope();
    const subscriber = newId();
    const [mine] = await feed(scope, subscriber, [{}]);
    const at = tick();
    expect(await stores.inbox.find(scope, newId(), mine.id)).toBeNull();
    expect(await stores.inbox.find(newScope(), subscriber, mine.id)).toBeNull();
    expect(await stores.inbox.change(scope, newId(), mine.id, { read: true, at })).toBeNull();
    expect(await stores.inbox.changeMany({ ...scope, environmentId: newId() }, subscriber, {}, { read: true, at })).toEqual([]);
    expect(await stores.inbox.delete(scope, newId(), mine.id)).toBeNull();
    expect(await stores.inbox.deleteMany(newScope(), subscriber, {})).toEqual([]);
    expect(await stores.inbox.find(scope, subscriber, mine.id)).toMatchObject({ message: { read: false } });
  });

  it('changes and deletes in bulk under a filter, answering each message after the change with its state before', async () => {
    const scope = newScope();
    const subscriber = newId();
    const [a, b, c] = await feed(scope, subscriber, [{ tags: ['t'] }, { tags: ['t'] }, {}]);
    await stores.inbox.change(scope, subscriber, b.id, { seen: true, at: tick() });
    const at = tick();
    const read = await stores.inbox.changeMany(scope, subscriber, { tags: ['t'], read: false }, { read: true, seen: true, at });
    const byId = (changed: InboxChanged[]) => Object.fromEntries(changed.map(({ message, before }) => [message.id, { message, before }]));
    expect(byId(read)).toEqual({
      [a.id]: {
        message: expect.objectContaining({ read: true, seen: true, lastReadDate: at, updatedAt: at }),
        before: expect.objectContaining({ read: false, seen: false }),
      },
      [b.id]: { message: expect.objectContaining({ read: true, seen: true }), before: expect.objectContaining({ read: false, seen: true }) },
    });
    expect(await stores.inbox.count(scope, subscriber, UNREAD_FILTER)).toBe(1);
    expect((await stores.inbox.changeMany(scope, subscriber, { ids: [c.id], seen: false }, { seen: true, at })).map((changed) => changed.message.id)).toEqual([
      c.id,
    ]);
    expect((await stores.inbox.deleteMany(scope, subscriber, { read: true })).map((m) => m.id).sort()).toEqual([a.id, b.id].sort());
    expect(await stores.inbox.delete(scope, subscriber, c.id)).toMatchObject({ id: c.id, seen: true });
    expect(await stores.inbox.delete(scope, subscriber, c.id)).toBeNull();
    expect(await stores.messages.findById(scope, a.id)).toBeNull();
    expect(await stores.messages.findById(scope, b.id)).toBeNull();
  });

  it('answers the state before to one of two concurrent marks only: the other finds the change made', async () => {
    const scope = newScope();
    const subscriber = newId();
    const [m] = await feed(scope, subscriber, [{}]);
    const marks = await Promise.all([
      stores.inbox.change(scope, subscriber, m.id, { read: true, seen: true, at: tick() }),
      stores.inbox.changeMany(scope, subscriber, { ids: [m.id] }, { read: true, seen: true, at: tick() }),
    ]);
    const befores = [marks[0]!.before, ...marks[1].map((changed) => changed.before)];
    expect(befores.map((before) => before.read).sort()).toEqual([false, true]);
  });

  it('wakes each due snooze once, even for concurrent sweeps', async () => {
    const scope = newScope();
    const subscriber = newId();
    const [due, later] = await feed(scope, subscriber, [{}, {}]);
    const now = new Date(Date.now() + 86_400_000 * 365 * 5);
    await stores.inbox.change(scope, subscriber, due.id, { snoozedUntil: new Date(now.getTime() - 1000), at: tick() });
    await stores.inbox.change(scope, subscriber, later.id, { snoozedUntil: new Date(now.getTime() + 60_000), at: tick() });
    const sweeps = await Promise.all([stores.inbox.wakeSnoozed(now, 100), stores.inbox.wakeSnoozed(now, 100)]);
    const woken = sweeps.flat().filter((m) => m.id === due.id);
    expect(woken).toHaveLength(1);
    expect(woken[0]).not.toHaveProperty('snoozedUntil');
    expect(woken[0].deliveredAt).toHaveLength(2);
    expect(await stores.inbox.count(scope, subscriber, { snoozed: true })).toBe(1);
  });

  it('records presence on the subscriber', async () => {
    const scope = newScope();
    const id = newId();
    const at = tick();
    await stores.subscribers.insert({ id, ...scope, subscriberId: 'presence-1', channels: [], createdAt: at, updatedAt: at });
    await stores.inbox.setPresence(scope, id, true, at);
    expect(await stores.subscribers.findBySubscriberId(scope, 'presence-1')).toMatchObject({ isOnline: true, lastOnlineAt: at });
    await stores.inbox.setPresence(newScope(), id, false, tick());
    expect(await stores.subscribers.findBySubscriberId(scope, 'presence-1')).toMatchObject({ isOnline: true });
    await stores.inbox.setPresence(scope, id, false, tick());
    expect(await stores.subscribers.findBySubscriberId(scope, 'presence-1')).toMatchObject({ isOnline: false });
  });
}

describe.each(REPOSITORY_STORES)('InboxRepository on $name', (store) => {
  inboxRepositoryContract(openRepository(store, (r) => ({ inbox: r.inbox, chains: r.chains, messages: r.messages, subscribers: r.subscribers })));
});

describeMongoContract('InboxRepository', (store) =>
  inboxRepositoryContract(openRepository(store, (r) => ({ inbox: r.inbox, chains: r.chains, messages: r.messages, subscribers: r.subscribers }))),
);
