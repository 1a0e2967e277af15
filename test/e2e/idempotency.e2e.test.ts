import { IDEMPOTENCY_STORE, IdempotencyStore } from '@app/kernel';
import { idempotencyBodyHash, idempotencyStoreKey } from '../../apps/api/src/http/idempotency.interceptor';
import { STORES, StoreUnderTest, TestApp, startTestApp, uniqueName } from '../support/test-app';

// Every store × both idempotency backends: the SQL store (no REDIS_URL) and Redis.
const MATRIX: [StoreUnderTest, 'sql' | 'redis'][] = STORES.flatMap((store) => [
  [store, 'sql'] as [StoreUnderTest, 'sql'],
  [store, 'redis'] as [StoreUnderTest, 'redis'],
]);

describe.each(MATRIX)('Idempotency-Key (%s store, %s idempotency backend)', (store, backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ store, redis: backend === 'redis' });
  });
  afterAll(() => t?.close());

  const key = () => uniqueName('idem');
  const countTenants = async (apiKey?: string) => (await t.api(apiKey).get('/v1/tenants?limit=100').expect(200)).body.data.length;

  it('replays a completed POST with its status, body and Idempotency-Replay: true, writing once', async () => {
    const k = key();
    const body = { identifier: uniqueName('t'), name: 'Once' };
    const before = await countTenants();
    const first = await t.api().post('/v1/tenants').set('Idempotency-Key', k).send(body).expect(201);
    expect(first.headers['idempotency-replay']).toBeUndefined();
    expect(first.headers['idempotency-key']).toBe(k);

    const again = await t.api().post('/v1/tenants').set('Idempotency-Key', k).send(body).expect(201);
    expect(again.headers['idempotency-replay']).toBe('true');
    expect(again.headers['idempotency-key']).toBe(k);
    expect(again.body).toEqual(first.body);
    expect(await countTenants()).toBe(before + 1);
  });

  it('without the header, the same POST is simply a second request', async () => {
    const body = { identifier: uniqueName('t') };
    await t.api().post('/v1/tenants').send(body).expect(201);
    await t.api().post('/v1/tenants').send(body).expect(409);
  });

  it('answers the same key with a different body with 422', async () => {
    const k = key();
    await t
      .api()
      .post('/v1/tenants')
      .set('Idempotency-Key', k)
      .send({ identifier: uniqueName('t') })
      .expect(201);
    const res = await t
      .api()
      .post('/v1/tenants')
      .set('Idempotency-Key', k)
      .send({ identifier: uniqueName('t') })
      .expect(422);
    expect(res.body.message).toBe(`Request with key "${k}" is being reused for a different body`);
    expect(res.headers['idempotency-replay']).toBeUndefined();
  });

  it('answers a duplicate of a request still in progress with 409 and Retry-After: 1', async () => {
    const k = key();
    const body = { identifier: uniqueName('t') };
    // A claim held by a request that has not finished yet (another process, or a slow handler).
    const environmentId = (
      await t
        .api()
        .post('/v1/tenants')
        .send({ identifier: uniqueName('probe') })
        .expect(201)
    ).body.data._environmentId;
    const idempotency = t.app.get<IdempotencyStore>(IDEMPOTENCY_STORE);
    expect(await idempotency.claim(idempotencyStoreKey(environmentId, k), idempotencyBodyHash(body), 60)).toBeNull();

    const res = await t.api().post('/v1/tenants').set('Idempotency-Key', k).send(body).expect(409);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).toMatchObject({
      statusCode: 409,
      error: 'Conflict',
      message: `Request with key "${k}" is currently being processed. Please retry after 1 second`,
    });
    await t.api().get(`/v1/tenants/${body.identifier}`).expect(404);

    // Once the holder gives the key up (a server error does that), a retry goes through.
    await idempotency.release(idempotencyStoreKey(environmentId, k));
    await t.api().post('/v1/tenants').set('Idempotency-Key', k).send(body).expect(201);
  });

  it('lets exactly one of several simultaneous duplicates do the work', async () => {
    const k = key();
    const body = { identifier: uniqueName('t') };
    const before = await countTenants();
    const responses = await Promise.all(Array.from({ length: 6 }, () => t.api().post('/v1/tenants').set('Idempotency-Key', k).send(body)));
    const fresh = responses.filter((r) => r.status === 201 && r.headers['idempotency-replay'] === undefined);
    expect(fresh).toHaveLength(1);
    for (const r of responses) {
      if (r.status === 409) expect(r.headers['retry-after']).toBe('1');
      else expect(r).toMatchObject({ status: 201, body: fresh[0].body });
    }
    expect(await countTenants()).toBe(before + 1);
  });

  it('replays a 4xx answer as the same 4xx', async () => {
    const taken = uniqueName('t');
    await t.api().post('/v1/tenants').send({ identifier: taken }).expect(201);
    const k = key();
    const first = await t.api().post('/v1/tenants').set('Idempotency-Key', k).send({ identifier: taken }).expect(409);
    // The conflict goes away, but the key's answer stays what it was.
    await t.api().delete(`/v1/tenants/${taken}`).expect(204);
    const again = await t.api().post('/v1/tenants').set('Idempotency-Key', k).send({ identifier: taken }).expect(409);
    expect(again.headers['idempotency-replay']).toBe('true');
    expect(again.body).toEqual(first.body);
    await t.api().get(`/v1/tenants/${taken}`).expect(404);

    const invalid = key();
    const bad = await t.api().post('/v1/tenants').set('Idempotency-Key', invalid).send({ name: 'no identifier' }).expect(422);
    const badAgain = await t.api().post('/v1/tenants').set('Idempotency-Key', invalid).send({ name: 'no identifier' }).expect(422);
    expect(badAgain.body).toEqual(bad.body);
    expect(badAgain.headers['idempotency-replay']).toBe('true');
  });

  it('covers PATCH too: replayed, not applied twice, 422 for another body', async () => {
    const identifier = uniqueName('t');
    await t.api().post('/v1/tenants').send({ identifier, name: 'v0' }).expect(201);
    const k = key();
    const first = await t.api().patch(`/v1/tenants/${identifier}`).set('Idempotency-Key', k).send({ name: 'v1' }).expect(200);
    await t.api().patch(`/v1/tenants/${identifier}`).send({ name: 'v2' }).expect(200);
    const replay = await t.api().patch(`/v1/tenants/${identifier}`).set('Idempotency-Key', k).send({ name: 'v1' }).expect(200);
    expect(replay.headers['idempotency-replay']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect((await t.api().get(`/v1/tenants/${identifier}`).expect(200)).body.data.name).toBe('v2');
    await t.api().patch(`/v1/tenants/${identifier}`).set('Idempotency-Key', k).send({ name: 'v3' }).expect(422);
  });

  it('refuses a key longer than 255 characters with 400', async () => {
    const long = 'k'.repeat(256);
    const res = await t
      .api()
      .post('/v1/tenants')
      .set('Idempotency-Key', long)
      .send({ identifier: uniqueName('t') })
      .expect(400);
    expect(res.body.message).toBe(`idempotencyKey "${long}" has exceeded the maximum allowed length of 255 characters`);
    await t
      .api()
      .post('/v1/tenants')
      .set('Idempotency-Key', 'k'.repeat(255))
      .send({ identifier: uniqueName('t') })
      .expect(201);
  });

  it('keeps keys per environment', async () => {
    const other = await t.createEnvironment(uniqueName('Idem'));
    const k = key();
    const mine = await t
      .api()
      .post('/v1/tenants')
      .set('Idempotency-Key', k)
      .send({ identifier: uniqueName('t') })
      .expect(201);
    // Another body under the same key: independent there, so neither 422 nor a replay.
    const theirs = await t
      .api(other.apiKey)
      .post('/v1/tenants')
      .set('Idempotency-Key', k)
      .send({ identifier: uniqueName('t') })
      .expect(201);
    expect(theirs.headers['idempotency-replay']).toBeUndefined();
    expect(theirs.body.data._environmentId).toBe(other.environmentId);
    expect(theirs.body.data._id).not.toBe(mine.body.data._id);
    // And the same body as mine is a fresh request there too.
    const same = await t.api(other.apiKey).post('/v1/tenants').set('Idempotency-Key', uniqueName('x')).send({ identifier: 'shared' }).expect(201);
    const sameOther = await t.api().post('/v1/tenants').set('Idempotency-Key', k).send({ identifier: 'shared' }).expect(422);
    expect(same.headers['idempotency-replay']).toBeUndefined();
    expect(sameOther.body.statusCode).toBe(422);
  });

  it('ignores the header on GET (and DELETE)', async () => {
    const k = key();
    const first = await t.api().get('/v1/tenants?limit=100').set('Idempotency-Key', k).expect(200);
    const identifier = uniqueName('t');
    await t.api().post('/v1/tenants').send({ identifier }).expect(201);
    const second = await t.api().get('/v1/tenants?limit=100').set('Idempotency-Key', k).expect(200);
    expect(second.headers['idempotency-replay']).toBeUndefined();
    expect(second.body.data.length).toBe(first.body.data.length + 1);

    await t.api().delete(`/v1/tenants/${identifier}`).set('Idempotency-Key', k).expect(204);
    await t.api().delete(`/v1/tenants/${identifier}`).set('Idempotency-Key', k).expect(404);
  });
});
