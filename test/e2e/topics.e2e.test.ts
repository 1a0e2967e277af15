import {
  CreateSubscriptionsResponseDto$inboundSchema,
  DeleteTopicSubscriptionsResponseDto$inboundSchema,
  ListTopicSubscriptionsResponseDto$inboundSchema,
  ListTopicsResponseDto$inboundSchema,
  SubscriptionResponseDto$inboundSchema,
  TopicResponseDto$inboundSchema,
} from '@novu/api/models/components';
import { describeEachStore, startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

describeEachStore('topics v2 (%s)', (store) => {
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

  it("lists a subscriber's own subscriptions by cursor, filtered by exact topic key", async () => {
    const env = await t.createEnvironment('Subscriber subscriptions');
    const api = t.api(env.apiKey);
    await api.post('/v2/subscribers').send({ subscriberId: 'reader', email: 'r@example.com' }).expect(201);
    await api.post('/v2/subscribers').send({ subscriberId: 'loner' }).expect(201);
    for (const key of ['t-1', 't-2', 't-3']) {
      await api
        .post(`/v2/topics/${key}/subscriptions`)
        .send({ subscriberIds: ['reader'] })
        .expect(201);
    }
    const all = await api.get('/v2/subscribers/reader/subscriptions').expect(200);
    expect(all.body.data.map((s: any) => s.topic.key)).toEqual(['t-3', 't-2', 't-1']);
    expect(all.body).toMatchObject({ next: null, previous: null, totalCount: 3, totalCountCapped: false });
    expect(all.body.data[0]).toMatchObject({ identifier: 'tk_t-3:si_reader', subscriber: { subscriberId: 'reader', email: 'r@example.com' } });
    ListTopicSubscriptionsResponseDto$inboundSchema.parse(all.body);
    const first = await api.get('/v2/subscribers/reader/subscriptions?limit=1').expect(200);
    expect(first.body.previous).toBeNull();
    const second = await api.get(`/v2/subscribers/reader/subscriptions?limit=1&after=${first.body.next}`).expect(200);
    const third = await api.get(`/v2/subscribers/reader/subscriptions?limit=1&after=${second.body.next}`).expect(200);
    expect([first, second, third].map((r) => r.body.data[0].topic.key)).toEqual(['t-3', 't-2', 't-1']);
    const back = await api.get(`/v2/subscribers/reader/subscriptions?limit=1&before=${third.body.previous}`).expect(200);
    expect(back.body.data[0]._id).toBe(second.body.data[0]._id);
    expect(back.body.next).toEqual(expect.any(String));
    const one = await api.get('/v2/subscribers/reader/subscriptions?key=t-2').expect(200);
    expect(one.body.data.map((s: any) => s.topic.key)).toEqual(['t-2']);
    expect((await api.get('/v2/subscribers/loner/subscriptions').expect(200)).body).toMatchObject({ data: [], next: null, previous: null });
    const missing = await api.get('/v2/subscribers/ghost/subscriptions').expect(404);
    expect(missing.body.message).toBe('Subscriber not found');
    await api.get('/v2/subscribers/reader/subscriptions?after=a&before=b').expect(400);
    await api.get('/v2/subscribers/reader/subscriptions?limit=0').expect(422);
  });

  it("changes a subscription's name and its own workflow preferences by identifier", async () => {
    const env = await t.createEnvironment('Subscription preferences');
    const api = t.api(env.apiKey);
    const workflow = async (name: string, tags: string[]) =>
      (
        await api
          .post('/v1/workflows')
          .send({ name, active: true, tags, steps: [{ template: { type: 'in_app', content: 'x' } }] })
          .expect(201)
      ).body.data;
    const one = await workflow('Workflow one', ['tag1']);
    const two = await workflow('Workflow two', ['tag2', 'important']);
    await api.post('/v2/subscribers').send({ subscriberId: 'member' }).expect(201);
    const created = await api
      .post('/v2/topics/prefs/subscriptions')
      .send({ subscriberIds: ['member'] })
      .expect(201);
    const { identifier } = created.body.data[0];
    const patch = (body: object, id = identifier, key = 'prefs') => api.patch(`/v2/topics/${key}/subscriptions/${encodeURIComponent(id)}`).send(body);

    const res = await patch({
      name: 'Mine',
      preferences: [
        { filter: { workflowIds: ['workflow-one'], tags: ['important'] }, enabled: false },
        { workflowId: one._id, condition: { '==': [{ var: 'payload.tier' }, 'gold'] } },
        'no-such-workflow',
      ],
    }).expect(200);
    expect(res.body.data).toMatchObject({ _id: created.body.data[0]._id, identifier, name: 'Mine', topic: { key: 'prefs' } });
    expect(res.body.data.preferences).toEqual([
      {
        subscriptionId: identifier,
        workflow: { id: one._id, identifier: 'workflow-one', name: 'Workflow one', critical: false, tags: ['tag1'], severity: 'none' },
        enabled: true,
        condition: { '==': [{ var: 'payload.tier' }, 'gold'] },
      },
      {
        subscriptionId: identifier,
        workflow: { id: two._id, identifier: 'workflow-two', name: 'Workflow two', critical: false, tags: ['tag2', 'important'], severity: 'none' },
        enabled: false,
      },
    ]);
    SubscriptionResponseDto$inboundSchema.parse(res.body.data);

    // A field left out stays; preferences replace the stored ones.
    const renamed = await patch({ name: 'Renamed' }).expect(200);
    expect(renamed.body.data).toMatchObject({ name: 'Renamed', preferences: expect.any(Array) });
    const empty = await patch({}).expect(200);
    expect(empty.body.data).toMatchObject({ identifier, name: 'Renamed' });
    const replaced = await patch({ preferences: [{ filter: { tags: ['tag1'] }, enabled: false }] }).expect(200);
    expect(replaced.body.data.preferences.map((p: any) => [p.workflow.identifier, p.enabled])).toEqual([['workflow-one', false]]);
    expect((await patch({ preferences: [] }).expect(200)).body.data).not.toHaveProperty('preferences');

    expect((await patch({ name: 'x' }, 'tk_prefs:si_ghost').expect(404)).body.message).toBe(
      'Subscription with identifier tk_prefs:si_ghost not found for topic prefs',
    );
    await patch({ name: 'x' }, 'not-an-identifier').expect(404);
    await patch({ name: 'x' }, identifier, 'no-topic').expect(404);
    for (const body of [
      { name: 5 },
      { preferences: 'x' },
      { preferences: [5] },
      { preferences: [{ enabled: true }] },
      { preferences: [{ workflowId: 'a', condition: 'x' }] },
    ]) {
      await patch(body).expect(422);
    }
  });

  it("applies each subscription's own preferences when a trigger goes to the topic, as Novu", async () => {
    const env = await t.createEnvironment('Topic fan-out preferences');
    const api = t.api(env.apiKey);
    const workflow = async (name: string) =>
      (
        await api
          .post('/v1/workflows')
          .send({ name, active: true, steps: [{ template: { type: 'in_app', content: 'news for {{subscriber.subscriberId}}' } }] })
          .expect(201)
      ).body.data;
    const news = await workflow('Topic news');
    const other = await workflow('Other news');
    const people = ['on', 'off', 'gold', 'silver', 'other-workflow', 'both'];
    for (const subscriberId of people) await api.post('/v2/subscribers').send({ subscriberId }).expect(201);
    await api.post('/v2/topics/fan-news/subscriptions').send({ subscriberIds: people }).expect(201);
    await api
      .post('/v2/topics/fan-vip/subscriptions')
      .send({ subscriberIds: ['both'] })
      .expect(201);
    const prefer = (key: string, subscriberId: string, preferences: unknown[]) =>
      api
        .patch(`/v2/topics/${key}/subscriptions/${encodeURIComponent(`tk_${key}:si_${subscriberId}`)}`)
        .send({ preferences })
        .expect(200);
    await prefer('fan-news', 'on', [{ workflowId: news._id, enabled: true }]);
    await prefer('fan-news', 'off', [{ workflowId: news.triggers[0].identifier, enabled: false }]);
    await prefer('fan-news', 'gold', [{ workflowId: news._id, condition: { '==': [{ var: 'payload.tier' }, 'gold'] } }]);
    await prefer('fan-news', 'silver', [{ workflowId: news._id, condition: { '==': [{ var: 'payload.tier' }, 'silver'] } }]);
    await prefer('fan-news', 'other-workflow', [{ workflowId: other._id, enabled: false }]);
    await prefer('fan-news', 'both', [{ workflowId: news._id, enabled: false }]);
    await prefer('fan-vip', 'both', [{ workflowId: news._id, enabled: true }]);

    /** Who the trigger reached, once every expected notification is there (a topic's page of members is written at once). */
    const reached = async (to: unknown[], payload: Record<string, unknown>, expected: string[]) => {
      const trigger = await api.post('/v1/events/trigger').send({ name: news.triggers[0].identifier, to, payload }).expect(201);
      const { transactionId } = trigger.body.data;
      const notifications = await waitFor(async () => {
        const res = await api.get('/v1/notifications').query({ transactionId, limit: '100' }).expect(200);
        return res.body.data.length >= expected.length && res.body.data;
      });
      return notifications.map((n: any) => n.subscriber.subscriberId).sort();
    };
    const topic = (topicKey: string) => ({ type: 'Topic', topicKey });
    // `both` is off in fan-news but on in fan-vip: reached through fan-vip
    const gold = ['both', 'gold', 'on', 'other-workflow'];
    expect(await reached([topic('fan-news'), topic('fan-vip')], { tier: 'gold' }, gold)).toEqual(gold);
    const silver = ['on', 'other-workflow', 'silver'];
    expect(await reached([topic('fan-news')], { tier: 'silver' }, silver)).toEqual(silver);
    // a member named as a recipient is not reached through a topic: its subscription does not apply
    const direct = ['off', 'on', 'other-workflow'];
    expect(await reached(['off', topic('fan-news')], {}, direct)).toEqual(direct);
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
