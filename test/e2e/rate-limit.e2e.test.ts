import request from 'supertest';
import { TRIGGER_REPOSITORY, TriggerRepository } from '@app/delivery';
import { EnvironmentScope, IDEMPOTENCY_STORE, IdempotencyStore } from '@app/kernel';
import { idempotencyBodyHash, idempotencyStoreKey } from '../../apps/api/src/http/idempotency.interceptor';
import { ApiClient, TestApp, startTestApp, uniqueName } from '../support/test-app';

/** Three triggers per environment per minute. */
const LIMITED = { TRIGGER_RATE_LIMIT: '3', TRIGGER_RATE_LIMIT_WINDOW_SECONDS: '60' };

/** A workflow with an in-app step in the key's environment; returns its trigger identifier and the environment. */
async function inAppWorkflow(api: ApiClient): Promise<{ identifier: string; scope: EnvironmentScope }> {
  const identifier = uniqueName('limited').toLowerCase();
  const { body } = await api
    .post('/v1/workflows')
    .send({ name: identifier, identifier, active: true, steps: [{ template: { type: 'in_app', content: 'Hi' } }] })
    .expect(201);
  return { identifier, scope: { organizationId: body.data._organizationId, environmentId: body.data._environmentId } };
}

const trigger = (api: ApiClient, name: string, extra: Record<string, unknown> = {}) =>
  api.post('/v1/events/trigger').send({ name, to: uniqueName('sub'), ...extra });

/** The rate-limit headers of an answer, as numbers (undefined when absent). */
const limitHeaders = (res: request.Response) => ({
  limit: res.headers['ratelimit-limit'] === undefined ? undefined : Number(res.headers['ratelimit-limit']),
  remaining: res.headers['ratelimit-remaining'] === undefined ? undefined : Number(res.headers['ratelimit-remaining']),
  reset: res.headers['ratelimit-reset'] === undefined ? undefined : Number(res.headers['ratelimit-reset']),
});

describe.each([
  ['embedded mode: counted in the process', false],
  ['production mode: counted in Redis', true],
])('trigger rate limit per environment — %s', (_, redis) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ redis, env: LIMITED });
  });
  afterAll(() => t?.close());

  it('refuses the 4th trigger of an environment in the window with 429, stores nothing of it, and leaves other environments alone', async () => {
    const { identifier, scope } = await inAppWorkflow(t.api());
    for (let n = 1; n <= 3; n++) {
      const res = await trigger(t.api(), identifier).expect(201);
      expect(limitHeaders(res)).toEqual({ limit: 3, remaining: 3 - n, reset: expect.any(Number) });
      expect(limitHeaders(res).reset).toBeGreaterThanOrEqual(1);
      expect(limitHeaders(res).reset).toBeLessThanOrEqual(60);
      expect(res.headers['retry-after']).toBeUndefined();
    }

    const transactionId = uniqueName('refused');
    const idempotencyKey = uniqueName('key');
    const body = { name: identifier, to: 'ada', transactionId };
    const refused = await t.api().post('/v1/events/trigger').set('Idempotency-Key', idempotencyKey).send(body).expect(429);
    expect(refused.body).toEqual({
      statusCode: 429,
      timestamp: expect.any(String),
      path: '/v1/events/trigger',
      message: expect.stringMatching(/^Too many triggers: this environment may send 3 per 60 seconds; retry after \d+ seconds$/),
      error: 'Too Many Requests',
      code: 'rate_limited',
    });
    expect(limitHeaders(refused)).toEqual({ limit: 3, remaining: 0, reset: expect.any(Number) });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(retryAfter).toBe(limitHeaders(refused).reset);

    // Refused before anything ran: no trigger record, and the Idempotency-Key was never claimed.
    expect(await t.app.get<TriggerRepository>(TRIGGER_REPOSITORY).findByTransactionId(scope, transactionId)).toBeNull();
    const idempotency = t.app.get<IdempotencyStore>(IDEMPOTENCY_STORE);
    expect(await idempotency.claim(idempotencyStoreKey(scope.environmentId, idempotencyKey), idempotencyBodyHash(body), 60)).toBeNull();

    // Another environment has a count of its own.
    const other = await t.createEnvironment(uniqueName('Other'));
    const otherWorkflow = await inAppWorkflow(t.api(other.apiKey));
    const accepted = await trigger(t.api(other.apiKey), otherWorkflow.identifier).expect(201);
    expect(limitHeaders(accepted)).toMatchObject({ limit: 3, remaining: 2 });
    // and the first one is still refused
    await trigger(t.api(), identifier).expect(429);
  });

  it('counts each event of a bulk trigger, and one for a broadcast; a bulk over the limit stores none of its events', async () => {
    const other = await t.createEnvironment(uniqueName('Bulk'));
    const api = t.api(other.apiKey);
    const { identifier, scope } = await inAppWorkflow(api);
    const bulk = await api
      .post('/v1/events/trigger/bulk')
      .send({
        events: [
          { name: identifier, to: 'a' },
          { name: identifier, to: 'b' },
        ],
      })
      .expect(201);
    expect(limitHeaders(bulk)).toMatchObject({ limit: 3, remaining: 1 });
    const broadcast = await api.post('/v1/events/trigger/broadcast').send({ name: identifier }).expect(201);
    expect(limitHeaders(broadcast)).toMatchObject({ limit: 3, remaining: 0 });
    const transactionId = uniqueName('over');
    await api
      .post('/v1/events/trigger/bulk')
      .send({ events: [{ name: identifier, to: 'c', transactionId }] })
      .expect(429);
    expect(await t.app.get<TriggerRepository>(TRIGGER_REPOSITORY).findByTransactionId(scope, transactionId)).toBeNull();
  });

  it('counts trigger requests only: other routes, cancel included, carry no rate-limit headers', async () => {
    const res = await t
      .api()
      .delete(`/v1/events/trigger/${uniqueName('txn')}`)
      .expect(200);
    expect(limitHeaders(res)).toEqual({ limit: undefined, remaining: undefined, reset: undefined });
    const workflows = await t.api().get('/v1/workflows').expect(200);
    expect(workflows.headers['ratelimit-limit']).toBeUndefined();
  });

  it('counts refused requests of a bad body too (the limit comes before validation)', async () => {
    const other = await t.createEnvironment(uniqueName('Invalid'));
    for (let n = 1; n <= 3; n++) expect(limitHeaders(await t.api(other.apiKey).post('/v1/events/trigger').send({}).expect(422)).remaining).toBe(3 - n);
    await t.api(other.apiKey).post('/v1/events/trigger').send({}).expect(429);
  });
});

describe('trigger rate limit shared by two api processes on one Redis', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp({ store: 'postgres', redis: true, env: LIMITED });
    // the same database and Redis keys, the same API key: a second api process of the deployment
    second = await startTestApp({
      store: 'postgres',
      redis: true,
      env: LIMITED,
      sqlSchema: first.options.sqlSchema,
      apiKey: first.apiKey,
      worker: false,
    });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('counts an environment once across both', async () => {
    const { identifier } = await inAppWorkflow(first.api());
    expect(limitHeaders(await trigger(first.api(), identifier).expect(201)).remaining).toBe(2);
    expect(limitHeaders(await trigger(second.api(), identifier).expect(201)).remaining).toBe(1);
    expect(limitHeaders(await trigger(first.api(), identifier).expect(201)).remaining).toBe(0);
    await trigger(second.api(), identifier).expect(429);
    await trigger(first.api(), identifier).expect(429);
  });

  it('gives concurrent requests distinct places in the count: exactly the limit gets through', async () => {
    const other = await first.createEnvironment(uniqueName('Burst'));
    const { identifier } = await inAppWorkflow(first.api(other.apiKey));
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, n) => trigger((n % 2 ? second : first).api(other.apiKey), identifier).then((res) => res.status)),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });
});

describe('trigger rate limit off (TRIGGER_RATE_LIMIT=0)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ redis: true, env: { TRIGGER_RATE_LIMIT: '0', TRIGGER_RATE_LIMIT_WINDOW_SECONDS: '60' } });
  });
  afterAll(() => t?.close());

  it('limits nothing and sends no rate-limit headers', async () => {
    const { identifier } = await inAppWorkflow(t.api());
    for (let n = 0; n < 6; n++) {
      const res = await trigger(t.api(), identifier).expect(201);
      expect(limitHeaders(res)).toEqual({ limit: undefined, remaining: undefined, reset: undefined });
    }
  });
});
