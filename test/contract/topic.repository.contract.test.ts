import { EnvironmentScope, newId } from '@app/kernel';
import { SubscriberSubscriptionSearch, Topic, TopicRepository, TopicSearch, TopicSubscriptionSearch } from '@app/subscribers';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';

/** The TopicRepository contract; every store adapter must pass it. */
function topicRepositoryContract(open: () => Promise<{ repository: TopicRepository; close(): Promise<void> }>) {
  let repository: TopicRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  let clock = Date.parse('2025-01-01T00:00:00Z');
  const tick = () => new Date((clock += 1000));
  const scope = (): EnvironmentScope => ({ organizationId: 'org-1', environmentId: newId() });
  const topic = (env: EnvironmentScope, key: string, name?: string): Topic => {
    const now = tick();
    return { id: newId(now.getTime()), ...env, key, ...(name !== undefined ? { name } : {}), createdAt: now, updatedAt: now };
  };
  const member = (subscriberId: string) => ({ subscriberInternalId: `internal-${subscriberId}`, subscriberId });
  const ids = () => {
    const now = tick();
    return () => newId(now.getTime());
  };
  const cursor = { limit: 10, includeCursor: false, orderDirection: 'DESC' as const, orderBy: '_id' as const };
  const search = (overrides: Partial<TopicSearch> = {}): TopicSearch => ({ ...cursor, filter: {}, ...overrides });
  const subscriptions = (overrides: Partial<TopicSubscriptionSearch> = {}): TopicSubscriptionSearch => ({ ...cursor, ...overrides });

  it('upserts by key: creates once, then keeps the name unless a new one is given', async () => {
    const env = scope();
    const created = await repository.upsert(topic(env, 'news', 'News'));
    expect(created).toMatchObject({ created: true, topic: { key: 'news', name: 'News' } });
    const same = await repository.upsert(topic(env, 'news'));
    expect(same).toMatchObject({ created: false, topic: { id: created.topic.id, name: 'News' } });
    const renamed = await repository.upsert(topic(env, 'news', 'Latest'));
    expect(renamed).toMatchObject({ created: false, topic: { id: created.topic.id, name: 'Latest' } });
    expect(await repository.insert(topic(env, 'news'))).toBe(false);
    expect(await repository.insert(topic(env, 'other'))).toBe(true);
  });

  it('lists by key in code-point order, a cursor walking on from a key', async () => {
    const env = scope();
    for (const key of ['b-topic', 'B-topic', 'a.topic', 'a_topic', 'a-topic']) await repository.upsert(topic(env, key));
    const keys = (page: { items: Topic[] }) => page.items.map((t) => t.key);
    const first = await repository.search(env, search({ orderBy: 'key', orderDirection: 'ASC', limit: 3 }));
    expect(keys(first)).toEqual(['B-topic', 'a-topic', 'a.topic']);
    const second = await repository.search(env, search({ orderBy: 'key', orderDirection: 'ASC', limit: 3, after: first.next! }));
    expect(keys(second)).toEqual(['a_topic', 'b-topic']);
    expect(second.previous).toBe(second.items[0].id);
    expect(keys(await repository.search(env, search({ orderBy: 'key', orderDirection: 'DESC', limit: 2 })))).toEqual(['b-topic', 'a_topic']);
  });

  it('lists page by page, oldest first, or the one topic of an exact key, with the total', async () => {
    const env = scope();
    for (const key of ['p-c', 'p-a', 'p-b']) await repository.upsert(topic(env, key));
    const first = await repository.list(env, { page: 0, limit: 2 }, {});
    expect(first.items.map((t) => t.key)).toEqual(['p-c', 'p-a']);
    expect(first.totalCount).toBe(3);
    expect((await repository.list(env, { page: 1, limit: 2 }, {})).items.map((t) => t.key)).toEqual(['p-b']);
    expect(await repository.list(env, { page: 5, limit: 2 }, {})).toEqual({ items: [], totalCount: 3 });
    expect(await repository.list(env, { page: 0, limit: 10 }, { key: 'p-a' })).toMatchObject({ items: [{ key: 'p-a' }], totalCount: 1 });
    expect(await repository.list(env, { page: 0, limit: 10 }, { key: 'p-' })).toEqual({ items: [], totalCount: 0 });
    expect(await repository.list(scope(), { page: 0, limit: 10 }, {})).toEqual({ items: [], totalCount: 0 });
  });

  it('concurrent upserts of one key make one topic', async () => {
    const env = scope();
    const results = await Promise.all(Array.from({ length: 6 }, () => repository.upsert(topic(env, 'race'))));
    expect(new Set(results.map((r) => r.topic.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  it('renames, finds, deletes with memberships', async () => {
    const env = scope();
    const { topic: t } = await repository.upsert(topic(env, 'alpha'));
    expect((await repository.rename(env, 'alpha', 'Alpha', tick()))?.name).toBe('Alpha');
    expect(await repository.rename(env, 'nope', 'X', tick())).toBeNull();
    await repository.addSubscriptions(t, [member('a'), member('b')], tick(), ids());
    expect(await repository.delete(env, 'alpha')).toBe(true);
    expect(await repository.delete(env, 'alpha')).toBe(false);
    expect(await repository.findByKey(env, 'alpha')).toBeNull();
    // A new topic of the same key starts empty.
    const { topic: again } = await repository.upsert(topic(env, 'alpha'));
    expect(again.id).not.toBe(t.id);
    expect((await repository.listMemberIds(env, 'alpha', null, 10)).subscriberIds).toEqual([]);
    expect((await repository.topicKeysOfSubscribers(env, ['a'])).get('a')).toEqual([]);
  });

  it('adds memberships idempotently and removes them', async () => {
    const env = scope();
    const { topic: t } = await repository.upsert(topic(env, 'team'));
    const added = await repository.addSubscriptions(t, [member('a'), member('b')], tick(), ids());
    expect(added.map((s) => s.subscriberId)).toEqual(['a', 'b']);
    expect(added[0]).toMatchObject({ topicId: t.id, topicKey: 'team', subscriberInternalId: 'internal-a' });
    const again = await repository.addSubscriptions(t, [member('b'), member('c')], tick(), ids());
    expect(again.map((s) => s.subscriberId)).toEqual(['b', 'c']);
    expect(again[0].id).toBe(added[1].id);
    expect((await repository.listSubscriptions(env, 'team', subscriptions())).totalCount).toBe(3);

    const removed = await repository.removeSubscriptions(env, 'team', ['a', 'zzz']);
    expect(removed.map((s) => s.subscriberId)).toEqual(['a']);
    expect((await repository.listSubscriptions(env, 'team', subscriptions())).items.map((s) => s.subscriberId)).toEqual(['c', 'b']);
    expect((await repository.listSubscriptions(env, 'team', subscriptions({ subscriberId: 'c' }))).items).toHaveLength(1);
  });

  it('concurrent adds of one member make one membership', async () => {
    const env = scope();
    const { topic: t } = await repository.upsert(topic(env, 'busy'));
    await Promise.all(Array.from({ length: 5 }, () => repository.addSubscriptions(t, [member('x')], tick(), ids())));
    expect((await repository.listSubscriptions(env, 'busy', subscriptions())).totalCount).toBe(1);
  });

  it('iterates members in batches by cursor', async () => {
    const env = scope();
    const { topic: t } = await repository.upsert(topic(env, 'big'));
    const members = Array.from({ length: 7 }, (_, i) => member(`m${i}`));
    for (const m of members) await repository.addSubscriptions(t, [m], tick(), ids());
    const seen: string[] = [];
    let next: string | null = null;
    let batches = 0;
    do {
      const batch: { subscriberIds: string[]; next: string | null } = await repository.listMemberIds(env, 'big', next, 3);
      seen.push(...batch.subscriberIds);
      next = batch.next;
      batches++;
    } while (next);
    expect(seen).toEqual(members.map((m) => m.subscriberId));
    expect(batches).toBe(3);
    expect(await repository.listMemberIds(env, 'missing', null, 3)).toEqual({ subscriberIds: [], next: null });
  });

  it("gives a trigger's batches of members with each one's subscription preference for that workflow", async () => {
    const env = scope();
    const { topic: t } = await repository.upsert(topic(env, 'prefs-batch'));
    for (const id of ['p0', 'p1', 'p2', 'p3']) await repository.addSubscriptions(t, [member(id)], tick(), ids());
    const gold = { workflowId: 'wf-a', enabled: true, condition: { '==': [{ var: 'payload.tier' }, 'gold'] } };
    await repository.updateSubscription(
      env,
      'prefs-batch',
      'p1',
      {
        preferences: [
          { workflowId: 'wf-b', enabled: true },
          { workflowId: 'wf-a', enabled: false },
        ],
      },
      tick(),
    );
    await repository.updateSubscription(env, 'prefs-batch', 'p2', { preferences: [gold] }, tick());
    await repository.updateSubscription(env, 'prefs-batch', 'p3', { preferences: [{ workflowId: 'wf-b', enabled: false }] }, tick());

    const first = await repository.listMembersFor(env, 'prefs-batch', 'wf-a', null, 2);
    expect(first.members).toEqual([{ subscriberId: 'p0' }, { subscriberId: 'p1', preference: { workflowId: 'wf-a', enabled: false } }]);
    // the same batches and cursors as listMemberIds
    const memberIds = await repository.listMemberIds(env, 'prefs-batch', null, 2);
    expect(first.next).toBe(memberIds.next);
    const second = await repository.listMembersFor(env, 'prefs-batch', 'wf-a', first.next, 2);
    expect(second).toEqual({ members: [{ subscriberId: 'p2', preference: gold }, { subscriberId: 'p3' }], next: null });
    expect((await repository.listMembersFor(env, 'prefs-batch', 'wf-b', null, 10)).members.map((m) => m.preference?.enabled)).toEqual([
      undefined,
      true,
      undefined,
      false,
    ]);
    expect(await repository.listMembersFor(env, 'missing', 'wf-a', null, 3)).toEqual({ members: [], next: null });
    expect(await repository.listMembersFor(scope(), 'prefs-batch', 'wf-a', null, 3)).toEqual({ members: [], next: null });
  });

  it('knows the topics of each subscriber and forgets a deleted subscriber', async () => {
    const env = scope();
    const { topic: one } = await repository.upsert(topic(env, 'one'));
    const { topic: two } = await repository.upsert(topic(env, 'two'));
    await repository.addSubscriptions(one, [member('a'), member('b')], tick(), ids());
    await repository.addSubscriptions(two, [member('a')], tick(), ids());
    const keys = await repository.topicKeysOfSubscribers(env, ['a', 'b', 'c']);
    expect(keys.get('a')).toEqual(['one', 'two']);
    expect(keys.get('b')).toEqual(['one']);
    expect(keys.get('c')).toEqual([]);
    await repository.removeSubscriber(env, 'a');
    expect((await repository.topicKeysOfSubscribers(env, ['a'])).get('a')).toEqual([]);
    expect((await repository.listMemberIds(env, 'one', null, 10)).subscriberIds).toEqual(['b']);
  });

  it("lists one subscriber's memberships over topics, by cursor and exact topic key", async () => {
    const env = scope();
    for (const key of ['k-one', 'k-two', 'k-three']) {
      const { topic: t } = await repository.upsert(topic(env, key));
      await repository.addSubscriptions(t, [member('a'), member('b')], tick(), ids());
    }
    const of = (subscriberId: string, overrides: Partial<SubscriberSubscriptionSearch> = {}) =>
      repository.listSubscriptionsOfSubscriber(env, subscriberId, { ...cursor, orderDirection: 'ASC', ...overrides });
    const first = await of('a', { limit: 2 });
    expect(first.items.map((s) => s.topicKey)).toEqual(['k-one', 'k-two']);
    expect(first).toMatchObject({ previous: null, totalCount: 3 });
    const second = await of('a', { limit: 2, after: first.next! });
    expect(second.items.map((s) => s.topicKey)).toEqual(['k-three']);
    expect(second.previous).toBe(second.items[0].id);
    expect((await of('a', { topicKey: 'k-two' })).items.map((s) => s.subscriberId)).toEqual(['a']);
    expect((await of('a', { topicKey: 'k-t' })).items).toEqual([]);
    await repository.delete(env, 'k-one');
    expect((await of('a')).items.map((s) => s.topicKey)).toEqual(['k-two', 'k-three']);
    expect((await of('nobody')).items).toEqual([]);
    expect((await repository.findByKeys(env, ['k-two', 'k-three', 'k-one', 'k-two'])).map((t) => t.key).sort()).toEqual(['k-three', 'k-two']);
    expect(await repository.findByKeys(scope(), ['k-two'])).toEqual([]);
  });

  it("changes a membership's name and preferences, a field left out staying", async () => {
    const env = scope();
    const { topic: t } = await repository.upsert(topic(env, 'prefs'));
    const [created] = await repository.addSubscriptions(t, [member('a')], tick(), ids());
    expect(created.name).toBeUndefined();
    expect(created.preferences).toBeUndefined();
    const preferences = [
      { workflowId: 'w-1', enabled: false },
      { workflowId: 'w-2', enabled: true, condition: { '==': [{ var: 'payload.tier' }, 'gold'] } },
    ];
    const named = await repository.updateSubscription(env, 'prefs', 'a', { name: 'Mine', preferences }, tick());
    expect(named).toMatchObject({ id: created.id, name: 'Mine', preferences });
    const renamed = await repository.updateSubscription(env, 'prefs', 'a', { name: 'Ours' }, tick());
    expect(renamed).toMatchObject({ name: 'Ours', preferences });
    const cleared = await repository.updateSubscription(env, 'prefs', 'a', { preferences: [] }, tick());
    expect(cleared!.preferences).toBeUndefined();
    expect(cleared!.name).toBe('Ours');
    expect(await repository.listMembersFor(env, 'prefs', 'w-1', null, 10)).toEqual({ members: [{ subscriberId: 'a' }], next: null });
    expect((await repository.listSubscriptions(env, 'prefs', subscriptions())).items[0].name).toBe('Ours');
    expect(await repository.updateSubscription(env, 'prefs', 'b', { name: 'X' }, tick())).toBeNull();
    expect(await repository.updateSubscription(env, 'other', 'a', { name: 'X' }, tick())).toBeNull();
    expect(await repository.updateSubscription(scope(), 'prefs', 'a', { name: 'X' }, tick())).toBeNull();
  });

  it('searches by key and name substrings, cursor-paginated', async () => {
    const env = scope();
    for (const [key, name] of [
      ['news-eu', 'European News'],
      ['news-us', 'US News'],
      ['billing', 'Billing_Alerts'],
    ]) {
      await repository.upsert(topic(env, key, name));
    }
    expect((await repository.search(env, search({ filter: { key: 'NEWS' } }))).items.map((t) => t.key)).toEqual(['news-us', 'news-eu']);
    expect((await repository.search(env, search({ filter: { name: 'european' } }))).items.map((t) => t.key)).toEqual(['news-eu']);
    expect((await repository.search(env, search({ filter: { name: 'g_a' } }))).items.map((t) => t.key)).toEqual(['billing']);
    const first = await repository.search(env, search({ limit: 2, orderDirection: 'ASC' }));
    expect(first.items.map((t) => t.key)).toEqual(['news-eu', 'news-us']);
    const second = await repository.search(env, search({ limit: 2, orderDirection: 'ASC', after: first.next! }));
    expect(second).toMatchObject({ next: null, previous: second.items[0].id, totalCount: 3 });
    expect(second.items.map((t) => t.key)).toEqual(['billing']);
  });

  it('keeps environments apart', async () => {
    const one = scope();
    const two = scope();
    const { topic: t } = await repository.upsert(topic(one, 'shared'));
    await repository.addSubscriptions(t, [member('a')], tick(), ids());
    expect(await repository.findByKey(two, 'shared')).toBeNull();
    expect(await repository.delete(two, 'shared')).toBe(false);
    expect(await repository.removeSubscriptions(two, 'shared', ['a'])).toEqual([]);
    expect((await repository.listMemberIds(two, 'shared', null, 10)).subscriberIds).toEqual([]);
    expect((await repository.topicKeysOfSubscribers(two, ['a'])).get('a')).toEqual([]);
    expect((await repository.search(two, search())).items).toEqual([]);
    await repository.removeSubscriber(two, 'a');
    expect((await repository.listMemberIds(one, 'shared', null, 10)).subscriberIds).toEqual(['a']);
  });
}

describe.each(REPOSITORY_STORES)('TopicRepository on $name', (store) => {
  topicRepositoryContract(openRepository(store, (r) => r.topics));
});

describeMongoContract('TopicRepository', (store) => topicRepositoryContract(openRepository(store, (r) => r.topics)));
