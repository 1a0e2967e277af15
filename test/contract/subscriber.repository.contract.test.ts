import { CursorRequest, EnvironmentScope, newId } from '@app/kernel';
import { Subscriber, SubscriberRepository, SubscriberSearch } from '@app/subscribers';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';

/** The SubscriberRepository contract; every store adapter must pass it. */
function subscriberRepositoryContract(open: () => Promise<{ repository: SubscriberRepository; close(): Promise<void> }>) {
  let repository: SubscriberRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  const scope = (): EnvironmentScope => ({ organizationId: 'org-1', environmentId: newId() });
  let clock = Date.parse('2025-01-01T00:00:00Z');
  const tick = () => new Date((clock += 1000));
  const upsert = (s: EnvironmentScope, subscriberId: string, changes: Record<string, unknown> = {}) => {
    const now = tick();
    return repository.upsert(s, { id: newId(now.getTime()), subscriberId, changes, now });
  };
  const page = (overrides: Partial<SubscriberSearch> = {}): SubscriberSearch => ({
    limit: 10,
    includeCursor: false,
    orderDirection: 'DESC',
    orderBy: '_id',
    filter: {},
    ...overrides,
  });
  const ids = (items: Subscriber[]) => items.map((s) => s.subscriberId);

  it('upsert creates, then changes only the fields given: undefined stays, null clears, data is replaced', async () => {
    const env = scope();
    const first = await upsert(env, 'ada', { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', data: { a: 1, b: 2 } });
    expect(first.created).toBe(true);
    expect(first.subscriber).toMatchObject({ subscriberId: 'ada', firstName: 'Ada', email: 'ada@example.com', data: { a: 1, b: 2 }, channels: [] });

    const second = await upsert(env, 'ada', { firstName: null, email: undefined, data: { c: 3 } });
    expect(second.created).toBe(false);
    expect(second.subscriber.id).toBe(first.subscriber.id);
    expect(second.subscriber.firstName).toBeUndefined();
    expect(second.subscriber).toMatchObject({ lastName: 'Lovelace', email: 'ada@example.com', data: { c: 3 } });
    expect(second.subscriber.createdAt.getTime()).toBe(first.subscriber.createdAt.getTime());
    expect(second.subscriber.updatedAt.getTime()).toBeGreaterThan(first.subscriber.updatedAt.getTime());

    // A field set to null is marked as such until a value is set again.
    expect(second.subscriber.cleared).toEqual(['firstName']);
    const third = await upsert(env, 'ada', { firstName: 'Ada', phone: null, data: null });
    expect(third.subscriber.cleared).toEqual(['data', 'phone']);
    expect((await repository.findBySubscriberId(env, 'ada'))!.cleared).toEqual(['data', 'phone']);
    const born = await upsert(env, 'eve', { email: null });
    expect(born.subscriber.cleared).toEqual(['email']);

    const unchanged = await upsert(env, 'ada', {});
    expect(unchanged).toMatchObject({ created: false, subscriber: { id: first.subscriber.id, lastName: 'Lovelace' } });
  });

  it('concurrent upserts of one subscriberId make exactly one subscriber', async () => {
    const env = scope();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => upsert(env, 'racer', { firstName: `n${i}` })));
    expect(new Set(results.map((r) => r.subscriber.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect((await repository.search(env, page())).totalCount).toBe(1);
  });

  it('insert refuses an existing subscriberId', async () => {
    const env = scope();
    const now = tick();
    const subscriber: Subscriber = {
      id: newId(),
      organizationId: env.organizationId,
      environmentId: env.environmentId,
      subscriberId: 'once',
      email: 'once@example.com',
      channels: [],
      createdAt: now,
      updatedAt: now,
    };
    expect(await repository.insert(subscriber)).toBe(true);
    expect(await repository.insert({ ...subscriber, id: newId() })).toBe(false);
    expect(await repository.findBySubscriberId(env, 'once')).toMatchObject({ id: subscriber.id, email: 'once@example.com' });
    expect((await repository.findBySubscriberId(env, 'once'))!.cleared).toBeUndefined();
    await repository.insert({ ...subscriber, id: newId(), subscriberId: 'nulled', cleared: ['phone'] });
    expect((await repository.findBySubscriberId(env, 'nulled'))!.cleared).toEqual(['phone']);
  });

  it('update changes an existing subscriber only', async () => {
    const env = scope();
    await upsert(env, 'bob', { firstName: 'Bob', phone: '+100' });
    const updated = await repository.update(env, 'bob', { phone: null, locale: 'en-US' }, tick());
    expect(updated).toMatchObject({ firstName: 'Bob', locale: 'en-US' });
    expect(updated!.phone).toBeUndefined();
    expect(updated!.cleared).toEqual(['phone']);
    expect((await repository.update(env, 'bob', { phone: '+200' }, tick()))!.cleared).toBeUndefined();
    expect(await repository.update(env, 'nobody', { firstName: 'X' }, tick())).toBeNull();
  });

  it('replaceChannels is a compare-and-set on the stored channels', async () => {
    const env = scope();
    const { subscriber } = await upsert(env, 'pushy');
    const one = [{ providerId: 'fcm', integrationId: 'i1', credentials: { deviceTokens: ['a'] } }];
    const saved = await repository.replaceChannels(env, 'pushy', subscriber.channels, one, tick());
    expect(saved?.channels).toEqual(one);
    // A writer that read before the change loses and must re-read.
    expect(await repository.replaceChannels(env, 'pushy', [], [], tick())).toBeNull();
    const reread = (await repository.findBySubscriberId(env, 'pushy'))!;
    const two = [...reread.channels, { providerId: 'slack', integrationId: 'i2', credentials: { webhookUrl: 'https://x' } }];
    expect((await repository.replaceChannels(env, 'pushy', reread.channels, two, tick()))?.channels).toEqual(two);
    expect(await repository.replaceChannels(env, 'ghost', [], one, tick())).toBeNull();
  });

  it('concurrent compare-and-set writers: exactly one wins per round', async () => {
    const env = scope();
    await upsert(env, 'contended');
    const attempts = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        repository.replaceChannels(env, 'contended', [], [{ providerId: 'fcm', integrationId: `i${i}`, credentials: {} }], tick()),
      ),
    );
    expect(attempts.filter(Boolean)).toHaveLength(1);
  });

  it('keeps what it stored apart from the objects callers pass and get back', async () => {
    const env = scope();
    const channels = [{ providerId: 'fcm', integrationId: 'i1', credentials: { deviceTokens: ['a'] } }];
    const changes = { firstName: 'Ada', data: { tags: ['x'] } };
    const { subscriber } = await upsert(env, 'isolated', changes);
    changes.data.tags.push('changed by the caller');
    subscriber.data!.tags = 'changed by the caller';
    subscriber.channels.push(channels[0]);
    const saved = (await repository.replaceChannels(env, 'isolated', [], channels, tick()))!;
    channels[0].credentials.deviceTokens.push('changed by the caller');
    saved.channels[0].integrationId = 'changed by the caller';
    expect(await repository.findBySubscriberId(env, 'isolated')).toMatchObject({
      firstName: 'Ada',
      data: { tags: ['x'] },
      channels: [{ providerId: 'fcm', integrationId: 'i1', credentials: { deviceTokens: ['a'] } }],
    });
  });

  it('deletes, and finds many by subscriberId', async () => {
    const env = scope();
    await upsert(env, 'a');
    await upsert(env, 'b');
    expect(ids(await repository.findManyBySubscriberIds(env, ['a', 'b', 'zzz'])).sort()).toEqual(['a', 'b']);
    expect(await repository.findManyBySubscriberIds(env, [])).toEqual([]);
    const a = (await repository.findBySubscriberId(env, 'a'))!;
    expect(ids(await repository.findManyByIds(env, [a.id, 'unknown']))).toEqual(['a']);
    expect(await repository.findManyByIds(scope(), [a.id])).toEqual([]);
    expect(await repository.delete(env, 'a')).toBe(true);
    expect(await repository.delete(env, 'a')).toBe(false);
    expect(await repository.findBySubscriberId(env, 'a')).toBeNull();
  });

  it('keeps environments apart', async () => {
    const one = scope();
    const two = scope();
    await upsert(one, 'shared', { firstName: 'One' });
    expect(await repository.findBySubscriberId(two, 'shared')).toBeNull();
    expect(await repository.update(two, 'shared', { firstName: 'Two' }, tick())).toBeNull();
    expect(await repository.delete(two, 'shared')).toBe(false);
    expect((await repository.search(two, page())).items).toEqual([]);
    const created = await upsert(two, 'shared', { firstName: 'Two' });
    expect(created.created).toBe(true);
    expect((await repository.findBySubscriberId(one, 'shared'))?.firstName).toBe('One');
  });

  it('listBatch walks every subscriber of the environment once, a batch at a time, in id order', async () => {
    const env = scope();
    const other = scope();
    for (const id of ['b1', 'b2', 'b3', 'b4', 'b5']) await upsert(env, id);
    await upsert(other, 'elsewhere');
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const batch: { subscribers: Subscriber[]; next: string | null } = await repository.listBatch(env, cursor, 2);
      sizes.push(batch.subscribers.length);
      seen.push(...ids(batch.subscribers));
      cursor = batch.next;
    } while (cursor);
    expect(seen).toEqual(['b1', 'b2', 'b3', 'b4', 'b5']);
    expect(sizes).toEqual([2, 2, 1]);
    const exact = await repository.listBatch(env, null, 5);
    expect(exact.next).toBeNull();
    expect(exact.subscribers[0]).toMatchObject({ subscriberId: 'b1', environmentId: env.environmentId, channels: [] });
    expect(await repository.listBatch(scope(), null, 10)).toEqual({ subscribers: [], next: null });
  });

  it('listPage: oldest first, page by page, hasMore only while a later page holds any; one environment only', async () => {
    const env = scope();
    for (const id of ['p1', 'p2', 'p3', 'p4', 'p5']) await upsert(env, id);
    await upsert(scope(), 'elsewhere');
    const first = await repository.listPage(env, { page: 0, limit: 2 });
    expect({ ids: ids(first.items), hasMore: first.hasMore }).toEqual({ ids: ['p1', 'p2'], hasMore: true });
    const last = await repository.listPage(env, { page: 2, limit: 2 });
    expect({ ids: ids(last.items), hasMore: last.hasMore }).toEqual({ ids: ['p5'], hasMore: false });
    const exact = await repository.listPage(env, { page: 0, limit: 5 });
    expect({ ids: ids(exact.items), hasMore: exact.hasMore }).toEqual({ ids: ['p1', 'p2', 'p3', 'p4', 'p5'], hasMore: false });
    expect(exact.items[0]).toMatchObject({ environmentId: env.environmentId, channels: [] });
    expect(await repository.listPage(env, { page: 3, limit: 2 })).toEqual({ items: [], hasMore: false });
    expect(await repository.listPage(scope(), { page: 0, limit: 10 })).toEqual({ items: [], hasMore: false });
  });

  describe('search', () => {
    const env = scope();
    beforeAll(async () => {
      await upsert(env, 's1', { firstName: 'Ada', lastName: 'Lovelace', email: 'ADA@Example.com', phone: '+4470001' });
      await upsert(env, 's2', { firstName: 'Alan', lastName: 'Turing', email: 'alan_t@example.com', phone: '+4470002' });
      await upsert(env, 's3', { firstName: 'Grace', email: 'grace%hopper@example.org' });
      await upsert(env, 's4', { lastName: 'Solo' });
      await upsert(env, 's5', { email: 'alanXt@example.com' });
    });

    it('filters: email/phone case-insensitive substrings with wildcards taken literally, name, exact subscriberId', async () => {
      expect(ids((await repository.search(env, page({ filter: { email: 'ada@EXAMPLE' } }))).items)).toEqual(['s1']);
      expect(ids((await repository.search(env, page({ filter: { email: 'alan_t' } }))).items)).toEqual(['s2']);
      expect(ids((await repository.search(env, page({ filter: { email: '%' } }))).items)).toEqual(['s3']);
      expect(ids((await repository.search(env, page({ filter: { phone: '7000' } }))).items)).toEqual(['s2', 's1']);
      expect(ids((await repository.search(env, page({ filter: { name: 'ada love' } }))).items)).toEqual(['s1']);
      expect(ids((await repository.search(env, page({ filter: { name: 'solo' } }))).items)).toEqual(['s4']);
      expect(ids((await repository.search(env, page({ filter: { subscriberId: 's2' } }))).items)).toEqual(['s2']);
      expect(ids((await repository.search(env, page({ filter: { subscriberId: 's' } }))).items)).toEqual([]);
      const counted = await repository.search(env, page({ limit: 1, filter: { email: 'example.com' } }));
      expect(counted).toMatchObject({ totalCount: 3, totalCountCapped: false });
    });

    it('pages forward and back by cursor, newest first by default', async () => {
      const first = await repository.search(env, page({ limit: 2 }));
      expect(ids(first.items)).toEqual(['s5', 's4']);
      expect(first.previous).toBeNull();
      expect(first.next).toBe(first.items[1].id);
      expect(first.totalCount).toBe(5);

      const second = await repository.search(env, page({ limit: 2, after: first.next! }));
      expect(ids(second.items)).toEqual(['s3', 's2']);
      expect(second.previous).toBe(second.items[0].id);
      const third = await repository.search(env, page({ limit: 2, after: second.next! }));
      expect(ids(third.items)).toEqual(['s1']);
      expect(third.next).toBeNull();

      const back = await repository.search(env, page({ limit: 2, before: third.items[0].id }));
      expect(ids(back.items)).toEqual(['s3', 's2']);
      expect(back.next).toBe(back.items[1].id);
      expect(back.previous).toBe(back.items[0].id);
      const start = await repository.search(env, page({ limit: 2, before: back.previous! }));
      expect(ids(start.items)).toEqual(['s5', 's4']);
      expect(start.previous).toBeNull();
    });

    it('includeCursor, ascending order, other sort fields, unknown cursors', async () => {
      const all = await repository.search(env, page({ orderDirection: 'ASC' }));
      expect(ids(all.items)).toEqual(['s1', 's2', 's3', 's4', 's5']);
      const cursor = all.items[1].id;
      expect(ids((await repository.search(env, page({ orderDirection: 'ASC', after: cursor, limit: 2 }))).items)).toEqual(['s3', 's4']);
      expect(ids((await repository.search(env, page({ orderDirection: 'ASC', after: cursor, limit: 2, includeCursor: true }))).items)).toEqual(['s2', 's3']);
      expect(ids((await repository.search(env, page({ orderBy: 'updatedAt', orderDirection: 'ASC' }))).items)).toEqual(['s1', 's2', 's3', 's4', 's5']);
      expect(ids((await repository.search(env, page({ orderBy: 'createdAt' }))).items)).toEqual(['s5', 's4', 's3', 's2', 's1']);
      const request: Partial<CursorRequest> = { after: newId() };
      expect(await repository.search(env, page(request))).toEqual({ items: [], next: null, previous: null, totalCount: 0, totalCountCapped: false });
    });
  });
}

describe.each(REPOSITORY_STORES)('SubscriberRepository on $name', (store) => {
  subscriberRepositoryContract(openRepository(store, (r) => r.subscribers));
});

describeMongoContract('SubscriberRepository', (store) => subscriberRepositoryContract(openRepository(store, (r) => r.subscribers)));
