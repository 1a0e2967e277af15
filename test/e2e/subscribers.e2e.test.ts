import { ListSubscribersResponseDto$inboundSchema, SubscriberResponseDto$inboundSchema } from '@novu/api/models/components';
import { waitFor } from '../support/wait-for';
import { describeEachStore, startTestApp, TestApp } from '../support/test-app';

describeEachStore('subscribers v2 (%s)', (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ store });
  });
  afterAll(() => t.close());

  const create = (body: Record<string, unknown>) => t.api().post('/v2/subscribers').send(body);

  describe('create', () => {
    it('creates a subscriber with Novu’s response shape, optional fields left out', async () => {
      const res = await create({ subscriberId: 'c-1', firstName: 'Ada', email: 'ada@example.com', data: { plan: 'pro' }, timezone: 'Europe/Paris' }).expect(
        201,
      );
      const body = res.body.data;
      expect(body).toMatchObject({
        subscriberId: 'c-1',
        firstName: 'Ada',
        email: 'ada@example.com',
        data: { plan: 'pro' },
        timezone: 'Europe/Paris',
        channels: [],
        topics: [],
        deleted: false,
        __v: 0,
      });
      expect(body._id).toMatch(/^[0-9a-f]{24}$/);
      expect(typeof body._environmentId).toBe('string');
      expect(typeof body._organizationId).toBe('string');
      expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
      for (const field of ['lastName', 'phone', 'avatar', 'locale', 'isOnline', 'lastOnlineAt']) expect(body).not.toHaveProperty(field);
      expect(Object.values(body)).not.toContain(null);
      SubscriberResponseDto$inboundSchema.parse(body);
    });

    it('updates an existing subscriber by default, and answers 409 with failIfExists=true', async () => {
      const first = await create({ subscriberId: 'c-2', firstName: 'A', lastName: 'B' }).expect(201);
      const again = await create({ subscriberId: 'c-2', firstName: 'Z' }).expect(201);
      expect(again.body.data).toMatchObject({ _id: first.body.data._id, firstName: 'Z', lastName: 'B' });
      const conflict = await t.api().post('/v2/subscribers?failIfExists=true').send({ subscriberId: 'c-2' }).expect(409);
      expect(conflict.body.message).toBe('Subscriber with subscriberId: c-2 already exists');
      await t.api().post('/v2/subscribers?failIfExists=true').send({ subscriberId: 'c-3', firstName: 'New' }).expect(201);
    });

    it('rejects invalid bodies with 422 and writes nothing', async () => {
      const missing = await create({ firstName: 'No id' }).expect(422);
      expect(missing.body.message).toBe('Validation Error');
      expect(missing.body.errors).toHaveProperty('subscriberId');
      expect((await create({ subscriberId: 'bad-1', email: 'not-an-email' }).expect(422)).body.errors).toHaveProperty('email');
      expect((await create({ subscriberId: 'bad-1', timezone: 'Mars/Olympus' }).expect(422)).body.errors).toHaveProperty('timezone');
      expect((await create({ subscriberId: 'bad-1', locale: 'xx_not_a_locale!' }).expect(422)).body.errors).toHaveProperty('locale');
      expect((await create({ subscriberId: 'bad-1', data: 'text' }).expect(422)).body.errors).toHaveProperty('data');
      expect((await create({ subscriberId: '' }).expect(422)).body.errors).toHaveProperty('subscriberId');
      await t.api().get('/v2/subscribers/bad-1').expect(404);
    });
  });

  describe('get, patch, delete', () => {
    beforeAll(async () => {
      await create({ subscriberId: 'p-1', firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '+1555', data: { a: 1, b: 2 } }).expect(
        201,
      );
    });

    it('gets by subscriberId; unknown is 404', async () => {
      const res = await t.api().get('/v2/subscribers/p-1').expect(200);
      expect(res.body.data).toMatchObject({ subscriberId: 'p-1', firstName: 'Grace' });
      const missing = await t.api().get('/v2/subscribers/nobody').expect(404);
      expect(missing.body).toMatchObject({ statusCode: 404, message: 'Subscriber: nobody was not found' });
    });

    it('patches: fields left out stay, null clears, data is replaced', async () => {
      const res = await t
        .api()
        .patch('/v2/subscribers/p-1')
        .send({ firstName: 'G.', phone: null, data: { c: 3 } })
        .expect(200);
      expect(res.body.data).toMatchObject({ firstName: 'G.', lastName: 'Hopper', email: 'grace@example.com', data: { c: 3 } });
      // As Novu: a field set to null is answered as null (one never set is left out), and stays so.
      expect(res.body.data.phone).toBeNull();
      const after = await t.api().get('/v2/subscribers/p-1').expect(200);
      expect(after.body.data.data).toEqual({ c: 3 });
      expect(after.body.data.phone).toBeNull();
      SubscriberResponseDto$inboundSchema.parse(after.body.data);
      await t.api().patch('/v2/subscribers/p-1').send({ locale: 'en-US', timezone: 'America/New_York' }).expect(200);
    });

    it('answers fields set to null as null, on create, patch, search and an inline trigger recipient', async () => {
      const created = await create({ subscriberId: 'n-1', firstName: 'Ann', email: null, locale: null, timezone: null, data: null }).expect(201);
      expect(created.body.data).toMatchObject({ firstName: 'Ann', email: null, locale: null, timezone: null, data: null });
      expect(created.body.data).not.toHaveProperty('lastName');
      SubscriberResponseDto$inboundSchema.parse(created.body.data);
      const strict = await t.api().post('/v2/subscribers?failIfExists=true').send({ subscriberId: 'n-2', phone: null }).expect(201);
      expect(strict.body.data.phone).toBeNull();
      const patched = await t.api().patch('/v2/subscribers/n-1').send({ firstName: null, lastName: null, avatar: null, email: 'ann@example.com' }).expect(200);
      expect(patched.body.data).toMatchObject({ firstName: null, lastName: null, avatar: null, email: 'ann@example.com', locale: null });
      const listed = await t.api().get('/v2/subscribers?subscriberId=n-1').expect(200);
      expect(listed.body.data[0]).toMatchObject({ firstName: null, email: 'ann@example.com' });

      await t
        .api()
        .post('/v1/workflows')
        .send({ name: 'Null inline', active: true, steps: [{ template: { type: 'in_app', content: 'hi' } }] })
        .expect(201);
      const full = { subscriberId: 'n-3', firstName: 'Test', lastName: 'Name', email: 't@example.com', phone: '+1234567890', locale: 'en-US', data: { a: 1 } };
      await t
        .api()
        .post('/v1/events/trigger')
        .send({ name: 'null-inline', to: [full] })
        .expect(201);
      await waitFor(async () => (await t.api().get('/v2/subscribers/n-3')).body.data?.firstName === 'Test');
      const cleared = { subscriberId: 'n-3', firstName: null, lastName: null, email: null, phone: null, locale: null, data: null };
      await t
        .api()
        .post('/v1/events/trigger')
        .send({ name: 'null-inline', to: [cleared] })
        .expect(201);
      await waitFor(async () => (await t.api().get('/v2/subscribers/n-3')).body.data?.firstName === null);
      const inline = (await t.api().get('/v2/subscribers/n-3').expect(200)).body.data;
      expect(inline).toMatchObject({ firstName: null, lastName: null, email: null, phone: null, locale: null, data: null });
      expect(inline).not.toHaveProperty('avatar');
    });

    it('patch validates and answers 404 for unknown subscribers', async () => {
      expect((await t.api().patch('/v2/subscribers/p-1').send({ email: 'nope' }).expect(422)).body.errors).toHaveProperty('email');
      expect((await t.api().patch('/v2/subscribers/p-1').send({ timezone: 'Nowhere/City' }).expect(422)).body.errors).toHaveProperty('timezone');
      expect((await t.api().patch('/v2/subscribers/p-1').send({ locale: 'not a locale' }).expect(422)).body.errors).toHaveProperty('locale');
      const missing = await t.api().patch('/v2/subscribers/nobody').send({ firstName: 'X' }).expect(404);
      expect(missing.body.message).toBe('Subscriber nobody was not found');
      expect((await t.api().get('/v2/subscribers/p-1').expect(200)).body.data.email).toBe('grace@example.com');
    });

    it('deletes a subscriber with its topic memberships', async () => {
      await create({ subscriberId: 'd-1' }).expect(201);
      await t
        .api()
        .post('/v2/topics/d-topic/subscriptions')
        .send({ subscriberIds: ['d-1'] })
        .expect(201);
      expect((await t.api().get('/v2/subscribers/d-1').expect(200)).body.data.topics).toEqual(['d-topic']);
      const res = await t.api().delete('/v2/subscribers/d-1').expect(200);
      expect(res.body).toEqual({ data: { acknowledged: true, status: 'deleted' } });
      await t.api().get('/v2/subscribers/d-1').expect(404);
      await t.api().delete('/v2/subscribers/d-1').expect(404);
      expect((await t.api().get('/v2/topics/d-topic/subscriptions').expect(200)).body.data).toEqual([]);
      // Re-created, it starts without memberships.
      expect((await create({ subscriberId: 'd-1' }).expect(201)).body.data.topics).toEqual([]);
    });
  });

  describe('search', () => {
    let env: { apiKey: string };
    const list = (query: string) => t.api(env.apiKey).get(`/v2/subscribers${query}`);
    beforeAll(async () => {
      env = await t.createEnvironment('Search');
      const people = [
        { subscriberId: 's-1', firstName: 'Ada', lastName: 'Lovelace', email: 'ADA@example.com', phone: '+44 1' },
        { subscriberId: 's-2', firstName: 'Alan', lastName: 'Turing', email: 'alan_t@example.com' },
        { subscriberId: 's-3', firstName: 'Grace', email: 'grace%h@example.org', phone: '+1 2' },
        { subscriberId: 's-4', lastName: 'Solo' },
        { subscriberId: 's-5', email: 'alanxt@example.com' },
      ];
      for (const p of people) await t.api(env.apiKey).post('/v2/subscribers').send(p).expect(201);
    });
    const ids = (body: { data: { subscriberId: string }[] }) => body.data.map((s) => s.subscriberId);

    it('returns the page unwrapped, newest first, 10 by default', async () => {
      const res = await list('').expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'next', 'previous', 'totalCount', 'totalCountCapped']);
      expect(ids(res.body)).toEqual(['s-5', 's-4', 's-3', 's-2', 's-1']);
      expect(res.body).toMatchObject({ next: null, previous: null, totalCount: 5, totalCountCapped: false });
      ListSubscribersResponseDto$inboundSchema.parse(res.body);
    });

    it('pages with after/before cursors and includeCursor', async () => {
      const first = await list('?limit=2').expect(200);
      expect(ids(first.body)).toEqual(['s-5', 's-4']);
      expect(first.body.previous).toBeNull();
      const second = await list(`?limit=2&after=${first.body.next}`).expect(200);
      expect(ids(second.body)).toEqual(['s-3', 's-2']);
      expect(second.body.previous).toBe(second.body.data[0]._id);
      const back = await list(`?limit=2&before=${second.body.previous}`).expect(200);
      expect(ids(back.body)).toEqual(['s-5', 's-4']);
      expect(back.body.previous).toBeNull();
      const inclusive = await list(`?limit=2&after=${first.body.next}&includeCursor=true`).expect(200);
      expect(ids(inclusive.body)).toEqual(['s-4', 's-3']);
      const notTrue = await list(`?limit=2&after=${first.body.next}&includeCursor=1`).expect(200);
      expect(ids(notTrue.body)).toEqual(['s-3', 's-2']);
      const ascending = await list('?orderDirection=ASC&orderBy=createdAt&limit=3').expect(200);
      expect(ids(ascending.body)).toEqual(['s-1', 's-2', 's-3']);
      expect((await list('?orderBy=updatedAt').expect(200)).body.totalCount).toBe(5);
    });

    it('filters by email, phone, name substrings (case-insensitive, wildcards literal) and exact subscriberId', async () => {
      expect(ids((await list('?email=ada@EXAMPLE').expect(200)).body)).toEqual(['s-1']);
      expect(ids((await list('?email=alan_t').expect(200)).body)).toEqual(['s-2']);
      expect(ids((await list(`?email=${encodeURIComponent('%')}`).expect(200)).body)).toEqual(['s-3']);
      expect(ids((await list(`?phone=${encodeURIComponent('+1')}`).expect(200)).body)).toEqual(['s-3']);
      expect(ids((await list('?name=ada%20love').expect(200)).body)).toEqual(['s-1']);
      expect(ids((await list('?name=solo').expect(200)).body)).toEqual(['s-4']);
      expect(ids((await list('?subscriberId=s-2').expect(200)).body)).toEqual(['s-2']);
      expect(ids((await list('?subscriberId=s-').expect(200)).body)).toEqual([]);
      const counted = await list('?email=example.com&limit=1').expect(200);
      expect(counted.body).toMatchObject({ totalCount: 3, totalCountCapped: false });
      expect(counted.body.next).toBe(counted.body.data[0]._id);
    });

    it('rejects bad queries: both cursors 400, limit/orderBy/orderDirection 422; unknown cursor is an empty page', async () => {
      const both = await list('?after=a&before=b').expect(400);
      expect(both.body.message).toBe('Cannot specify both "before" and "after" cursors at the same time.');
      for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?orderBy=email', '?orderDirection=up']) {
        const res = await list(query).expect(422);
        expect(res.body.message).toBe('Validation Error');
      }
      await list('?limit=100').expect(200);
      for (const cursor of ['0123456789abcdef01234567', 'not-an-id']) {
        const res = await list(`?after=${cursor}`).expect(200);
        expect(res.body).toEqual({ data: [], next: null, previous: null, totalCount: 0, totalCountCapped: false });
      }
    });
  });

  it('keeps environments apart', async () => {
    const other = await t.createEnvironment('Isolated');
    await create({ subscriberId: 'iso-1', firstName: 'Mine' }).expect(201);
    await t.api(other.apiKey).get('/v2/subscribers/iso-1').expect(404);
    await t.api(other.apiKey).patch('/v2/subscribers/iso-1').send({ firstName: 'Theirs' }).expect(404);
    await t.api(other.apiKey).delete('/v2/subscribers/iso-1').expect(404);
    expect((await t.api(other.apiKey).get('/v2/subscribers?subscriberId=iso-1').expect(200)).body.data).toEqual([]);
    const theirs = await t.api(other.apiKey).post('/v2/subscribers?failIfExists=true').send({ subscriberId: 'iso-1', firstName: 'Theirs' }).expect(201);
    expect(theirs.body.data._environmentId).toBe(other.environmentId);
    expect((await t.api().get('/v2/subscribers/iso-1').expect(200)).body.data.firstName).toBe('Mine');
  });

  it('keeps subscribers across a restart', async () => {
    await create({ subscriberId: 'persist-1', email: 'p@example.com', data: { k: [1, 2] } }).expect(201);
    const { store: s, dataDir, sqlSchema, apiKey } = t.options;
    await t.close();
    t = await startTestApp({ store: s, dataDir, sqlSchema, apiKey });
    const res = await t.api().get('/v2/subscribers/persist-1').expect(200);
    expect(res.body.data).toMatchObject({ email: 'p@example.com', data: { k: [1, 2] } });
  });
});
