import {
  CreateSubscriptionsResponseDto$inboundSchema,
  DeleteTopicSubscriptionsResponseDto$inboundSchema,
  ListTopicSubscriptionsResponseDto$inboundSchema,
  ListTopicsResponseDto$inboundSchema,
  TopicResponseDto$inboundSchema,
} from '@novu/api/models/components';
import { STORES, TestApp, startTestApp } from '../support/test-app';

describe.each(STORES)('topics v2 (%s)', (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ store });
    for (const subscriberId of ['u-1', 'u-2', 'u-3']) {
      await t
        .api()
        .post('/v2/subscribers')
        .send({ subscriberId, firstName: subscriberId.toUpperCase(), email: `${subscriberId}@example.com` })
        .expect(201);
    }
  });
  afterAll(() => t.close());

  const subscribe = (key: string, subscriberIds: unknown) => t.api().post(`/v2/topics/${key}/subscriptions`).send({ subscriberIds });

  it('creates a topic (201), then updates it by key (200)', async () => {
    const created = await t.api().post('/v2/topics').send({ key: 'news', name: 'News' }).expect(201);
    expect(created.body.data).toMatchObject({ key: 'news', name: 'News' });
    expect(created.body.data._id).toMatch(/^[0-9a-f]{24}$/);
    TopicResponseDto$inboundSchema.parse(created.body.data);
    const updated = await t.api().post('/v2/topics').send({ key: 'news', name: 'Latest news' }).expect(200);
    expect(updated.body.data).toMatchObject({ _id: created.body.data._id, name: 'Latest news' });
    const kept = await t.api().post('/v2/topics').send({ key: 'news' }).expect(200);
    expect(kept.body.data.name).toBe('Latest news');
    const conflict = await t.api().post('/v2/topics?failIfExists=true').send({ key: 'news' }).expect(409);
    expect(conflict.body.message).toBe('Topic with key: news already exists');
  });

  it('validates topic bodies with 422', async () => {
    for (const body of [{}, { key: '' }, { key: 'has space' }, { key: 'a/b' }, { key: 'ok', name: 5 }]) {
      expect((await t.api().post('/v2/topics').send(body).expect(422)).body.message).toBe('Validation Error');
    }
    await t.api().patch('/v2/topics/news').send({ name: 7 }).expect(422);
  });

  it('gets, renames and deletes a topic; unknown keys are 404', async () => {
    await t.api().post('/v2/topics').send({ key: 'temp', name: 'Temp' }).expect(201);
    expect((await t.api().get('/v2/topics/temp').expect(200)).body.data).toMatchObject({ key: 'temp', name: 'Temp' });
    expect((await t.api().patch('/v2/topics/temp').send({ name: 'Renamed' }).expect(200)).body.data.name).toBe('Renamed');
    await subscribe('temp', ['u-1']).expect(201);
    expect((await t.api().delete('/v2/topics/temp').expect(200)).body).toEqual({ data: { acknowledged: true } });
    const missing = await t.api().get('/v2/topics/temp').expect(404);
    expect(missing.body.message).toBe('Topic with key: temp was not found');
    await t.api().patch('/v2/topics/temp').send({ name: 'X' }).expect(404);
    await t.api().delete('/v2/topics/temp').expect(404);
    await t.api().get('/v2/topics/temp/subscriptions').expect(404);
    await t
      .api()
      .delete('/v2/topics/temp/subscriptions')
      .send({ subscriberIds: ['u-1'] })
      .expect(404);
    expect((await t.api().get('/v2/subscribers/u-1').expect(200)).body.data.topics).not.toContain('temp');
  });

  it('subscribes subscribers (creating the topic), reporting unknown ones', async () => {
    const res = await subscribe('team', ['u-1', 'u-2', 'ghost', 'u-1']).expect(201);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'errors', 'meta']);
    expect(res.body.meta).toEqual({ totalCount: 3, successful: 2, failed: 1 });
    expect(res.body.errors).toEqual([{ subscriberId: 'ghost', code: 'SUBSCRIBER_NOT_FOUND', message: expect.any(String) }]);
    expect(res.body.data.map((s: any) => s.subscriber.subscriberId)).toEqual(['u-1', 'u-2']);
    expect(res.body.data[0]).toMatchObject({
      topic: { key: 'team' },
      subscriber: { firstName: 'U-1', email: 'u-1@example.com' },
      identifier: 'tk_team:si_u-1',
    });
    CreateSubscriptionsResponseDto$inboundSchema.parse(res.body);
    expect((await t.api().get('/v2/topics/team').expect(200)).body.data.key).toBe('team');

    const again = await subscribe('team', ['u-2', 'u-3']).expect(201);
    expect(again.body.meta).toEqual({ totalCount: 2, successful: 2, failed: 0 });
    expect(again.body).not.toHaveProperty('errors');
    expect(again.body.data[0]._id).toBe(res.body.data[1]._id);
    expect((await t.api().get('/v2/subscribers/u-2').expect(200)).body.data.topics).toEqual(['team']);
    const listed = await t.api().get('/v2/subscribers?subscriberId=u-3').expect(200);
    expect(listed.body.data[0].topics).toEqual(['team']);
  });

  it('validates subscription bodies: 1 to 100 string ids, a valid key for a new topic', async () => {
    await subscribe('team', []).expect(422);
    await subscribe('team', 'u-1').expect(422);
    await subscribe('team', [1]).expect(422);
    await subscribe(
      'team',
      Array.from({ length: 101 }, (_, i) => `x${i}`),
    ).expect(422);
    await subscribe(
      'team',
      Array.from({ length: 100 }, (_, i) => `x${i}`),
    ).expect(201);
    await subscribe('bad%20key', ['u-1']).expect(422);
  });

  it('lists subscriptions by cursor, filtered by subscriberId', async () => {
    await subscribe('list-me', ['u-1', 'u-2', 'u-3']).expect(201);
    const first = await t.api().get('/v2/topics/list-me/subscriptions?limit=2&orderDirection=ASC').expect(200);
    expect(first.body.data.map((s: any) => s.subscriber.subscriberId)).toEqual(['u-1', 'u-2']);
    expect(first.body).toMatchObject({ previous: null, totalCount: 3, totalCountCapped: false });
    expect(first.body.data[0].topic).toMatchObject({ key: 'list-me' });
    ListTopicSubscriptionsResponseDto$inboundSchema.parse(first.body);
    const second = await t.api().get(`/v2/topics/list-me/subscriptions?limit=2&orderDirection=ASC&after=${first.body.next}`).expect(200);
    expect(second.body.data.map((s: any) => s.subscriber.subscriberId)).toEqual(['u-3']);
    expect(second.body.next).toBeNull();
    const one = await t.api().get('/v2/topics/list-me/subscriptions?subscriberId=u-2').expect(200);
    expect(one.body.data).toHaveLength(1);
    await t.api().get('/v2/topics/list-me/subscriptions?after=a&before=b').expect(400);
    await t.api().get('/v2/topics/list-me/subscriptions?limit=500').expect(422);
  });

  it('unsubscribes, reporting ids that were not members', async () => {
    await subscribe('leave', ['u-1', 'u-2']).expect(201);
    const res = await t
      .api()
      .delete('/v2/topics/leave/subscriptions')
      .send({ subscriberIds: ['u-1', 'u-3'] })
      .expect(200);
    expect(res.body.meta).toEqual({ totalCount: 2, successful: 1, failed: 1 });
    expect(res.body.data.map((s: any) => s.subscriber.subscriberId)).toEqual(['u-1']);
    expect(res.body.errors[0]).toMatchObject({ subscriberId: 'u-3', code: 'SUBSCRIPTION_NOT_FOUND' });
    DeleteTopicSubscriptionsResponseDto$inboundSchema.parse(res.body);
    const left = await t.api().get('/v2/topics/leave/subscriptions').expect(200);
    expect(left.body.data.map((s: any) => s.subscriber.subscriberId)).toEqual(['u-2']);
    await t.api().delete('/v2/topics/leave/subscriptions').send({ subscriberIds: [] }).expect(422);
  });

  it('lists topics by cursor, filtered by key and name', async () => {
    const env = await t.createEnvironment('Topic list');
    for (const [key, name] of [
      ['alpha', 'First'],
      ['beta', 'Second'],
      ['alphabet', 'Letters_x'],
    ]) {
      await t.api(env.apiKey).post('/v2/topics').send({ key, name }).expect(201);
    }
    const all = await t.api(env.apiKey).get('/v2/topics').expect(200);
    expect(all.body.data.map((x: any) => x.key)).toEqual(['alphabet', 'beta', 'alpha']);
    expect(all.body).toMatchObject({ next: null, previous: null, totalCount: 3, totalCountCapped: false });
    ListTopicsResponseDto$inboundSchema.parse(all.body);
    expect((await t.api(env.apiKey).get('/v2/topics?key=ALPHA').expect(200)).body.data.map((x: any) => x.key)).toEqual(['alphabet', 'alpha']);
    expect((await t.api(env.apiKey).get('/v2/topics?name=s_x').expect(200)).body.data.map((x: any) => x.key)).toEqual(['alphabet']);
    const page = await t.api(env.apiKey).get('/v2/topics?limit=1').expect(200);
    const next = await t.api(env.apiKey).get(`/v2/topics?limit=1&after=${page.body.next}`).expect(200);
    expect(next.body.data.map((x: any) => x.key)).toEqual(['beta']);
    expect(next.body.previous).toBe(next.body.data[0]._id);
    await t.api(env.apiKey).get('/v2/topics?after=a&before=b').expect(400);
    await t.api(env.apiKey).get('/v2/topics?orderBy=name').expect(422);
    // Novu's orderBy=key, pages walking the keys in order
    const byKey = await t.api(env.apiKey).get('/v2/topics?orderBy=key&orderDirection=ASC&limit=2').expect(200);
    expect(byKey.body.data.map((x: any) => x.key)).toEqual(['alpha', 'alphabet']);
    const rest = await t.api(env.apiKey).get(`/v2/topics?orderBy=key&orderDirection=ASC&limit=2&after=${byKey.body.next}`).expect(200);
    expect(rest.body.data.map((x: any) => x.key)).toEqual(['beta']);
    expect((await t.api(env.apiKey).get('/v2/topics?orderBy=key').expect(200)).body.data.map((x: any) => x.key)).toEqual(['beta', 'alphabet', 'alpha']);
  });

  it('keeps environments apart', async () => {
    await subscribe('private', ['u-1']).expect(201);
    const other = await t.createEnvironment('Other topics');
    await t.api(other.apiKey).get('/v2/topics/private').expect(404);
    await t.api(other.apiKey).delete('/v2/topics/private').expect(404);
    expect((await t.api(other.apiKey).get('/v2/topics?key=private').expect(200)).body.data).toEqual([]);
    // u-1 does not exist in the other environment.
    const res = await t
      .api(other.apiKey)
      .post('/v2/topics/private/subscriptions')
      .send({ subscriberIds: ['u-1'] })
      .expect(201);
    expect(res.body.meta).toEqual({ totalCount: 1, successful: 0, failed: 1 });
    expect((await t.api().get('/v2/topics/private/subscriptions').expect(200)).body.data).toHaveLength(1);
  });

  it('keeps topics and memberships across a restart', async () => {
    await t.api().post('/v2/topics').send({ key: 'durable', name: 'Durable' }).expect(201);
    await subscribe('durable', ['u-3']).expect(201);
    const { store: s, dataDir, sqlSchema, apiKey } = t.options;
    await t.close();
    t = await startTestApp({ store: s, dataDir, sqlSchema, apiKey });
    expect((await t.api().get('/v2/topics/durable').expect(200)).body.data.name).toBe('Durable');
    const members = await t.api().get('/v2/topics/durable/subscriptions').expect(200);
    expect(members.body.data.map((x: any) => x.subscriber.subscriberId)).toEqual(['u-3']);
  });
});
