import { Readable } from 'node:stream';
import request from 'supertest';
import { describeEachStore, startTestApp, TestApp } from '../support/test-app';

describeEachStore('auth, errors and health (%s)', (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ store });
  });
  afterAll(() => t.close());

  const server = () => t.app.getHttpServer();

  it('answers the health check without a key', async () => {
    const res = await request(server()).get('/v1/health-check').expect(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.details.store.status).toBe('up');
  });

  it('rejects a missing header', async () => {
    const res = await request(server()).get('/v1/tenants').expect(401);
    expect(res.body).toMatchObject({ statusCode: 401, message: 'Missing authorization header', path: '/v1/tenants' });
    expect(typeof res.body.timestamp).toBe('string');
  });

  it('rejects another scheme', async () => {
    const res = await request(server()).get('/v1/tenants').set('Authorization', 'Bearer abc').expect(401);
    expect(res.body.message).toBe('Invalid authentication scheme: "Bearer"');
  });

  it('never echoes a key sent without its scheme', async () => {
    const res = await request(server()).get('/v1/tenants').set('Authorization', t.apiKey).expect(401);
    expect(res.body.message).toBe('Invalid authentication scheme: expected "Authorization: ApiKey <key>"');
    expect(JSON.stringify(res.body)).not.toContain(t.apiKey);
  });

  it('answers a body that is not JSON with a 415 that says so, and writes nothing', async () => {
    const plain = await t.api().post('/v1/tenants').set('Content-Type', 'text/plain').send('identifier=acme').expect(415);
    expect(plain.body).toMatchObject({
      statusCode: 415,
      code: 'unsupported_media_type',
      message: 'The request body must be JSON sent with Content-Type: application/json (got "text/plain")',
    });
    const form = await t.api().post('/v1/tenants').type('form').send({ identifier: 'acme-form', name: 'x' }).expect(415);
    expect(form.body.message).toContain('application/x-www-form-urlencoded');
    await t.api().get('/v1/tenants/acme-form').expect(404);
    // JSON with a charset, and vendor JSON types, are JSON; an empty POST needs no type
    await t
      .api()
      .post('/v1/tenants')
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ identifier: 'acme-json', name: 'x' }))
      .expect(201);
  });

  it('rejects an unknown key', async () => {
    const res = await request(server()).get('/v1/tenants').set('Authorization', 'ApiKey nope-nope-nope').expect(401);
    expect(res.body.message).toBe('API Key not found');
  });

  it('answers unknown routes with a JSON 404', async () => {
    const res = await t.api().get('/v1/no-such-route').expect(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('answers malformed JSON with a 400, never a 500', async () => {
    const res = await t.api().post('/v1/tenants').set('Content-Type', 'application/json').send('{"a":').expect(400);
    expect(res.body.message).toBe('Request body is not valid JSON');
  });

  it('refuses the NUL character (which the store cannot hold): 422 naming the body field, 400 in path and query; writes nothing', async () => {
    const nulBody = '{"subscriberId":"nul-sub","firstName":"a\\u0000b"}';
    const res = await t.api().post('/v2/subscribers').set('Content-Type', 'application/json').send(nulBody).expect(422);
    expect(res.body).toMatchObject({
      statusCode: 422,
      code: 'invalid_string',
      errors: { firstName: { messages: ['firstName must not contain the NUL character (U+0000)'] } },
    });
    await t.api().get('/v2/subscribers/nul-sub').expect(404);
    for (const path of ['/v2/subscribers/a%00b', '/v2/subscribers?email=a%00b', '/v1/messages?transactionId=x%00', '/v1/events/trigger/a%00b']) {
      const req = path.startsWith('/v1/events') ? t.api().delete(path) : t.api().get(path);
      expect((await req.expect(400)).body.code).toBe('nul_character');
    }
    // a backslash followed by "u0000" is ordinary text
    const text = await t
      .api()
      .post('/v2/subscribers')
      .set('Content-Type', 'application/json')
      .send('{"subscriberId":"not-nul","firstName":"a\\\\u0000b"}')
      .expect(201);
    expect(text.body.data.firstName).toBe('a\\u0000b');
  });

  it('refuses a body nested deeper than 64 levels with a 400 (validation would overflow the stack), and takes 64', async () => {
    const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '[1]' + '}'.repeat(depth - 1);
    const deep = await t
      .api()
      .post('/v1/tenants')
      .set('Content-Type', 'application/json')
      .send(`{"identifier":"deep-t","data":${nested(100_000)}}`)
      .expect(400);
    expect(deep.body).toMatchObject({ statusCode: 400, code: 'body_too_deep' });
    await t
      .api()
      .post('/v1/tenants')
      .set('Content-Type', 'application/json')
      .send(`{"identifier":"deep-t","data":${nested(64)}}`)
      .expect(400);
    // brackets inside strings do not count
    await t
      .api()
      .post('/v1/tenants')
      .send({ identifier: 'deep-ok', name: '[{'.repeat(40), data: JSON.parse(nested(63)) })
      .expect(201);
  });

  it('answers an oversized body with a 413', async () => {
    const res = await t
      .api()
      .post('/v1/tenants')
      .send({ blob: 'x'.repeat(2_000_000) })
      .expect(413);
    expect(res.body.statusCode).toBe(413);
  });

  it('answers an oversized chunked body (no Content-Length to check up front) with a 413 as well', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/tenants',
      headers: { 'content-type': 'application/json', authorization: `ApiKey ${t.apiKey}` },
      payload: Readable.from([Buffer.from(JSON.stringify({ identifier: 'chunked', blob: 'x'.repeat(700_000) }))]),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ statusCode: 413, code: 'body_too_large' });
    await t.api().get('/v1/tenants/chunked').expect(404);
  });

  it('accepts the right key and answers in its environment', async () => {
    const res = await t.api().get('/v1/tenants').expect(200);
    expect(res.body).toMatchObject({ data: expect.any(Array), page: 0 });
  });

  it("scopes every key to its environment: B never sees A's tenants", async () => {
    const a = await t.createEnvironment('Env A');
    const b = await t.createEnvironment('Env B');
    await t.api(a.apiKey).post('/v1/tenants').send({ identifier: 'only-in-a', name: 'A' }).expect(201);
    await t.api(b.apiKey).get('/v1/tenants/only-in-a').expect(404);
    const listed = await t.api(b.apiKey).get('/v1/tenants?limit=100').expect(200);
    expect(listed.body.data).toEqual([]);
    // Nor does the bootstrap (Development) key.
    await t.api().get('/v1/tenants/only-in-a').expect(404);
    await t.api(a.apiKey).get('/v1/tenants/only-in-a').expect(200);
  });

  it('answers an unknown key with 401 even with an Idempotency-Key, and stores nothing', async () => {
    await request(server())
      .post('/v1/tenants')
      .set('Authorization', 'ApiKey nope-nope-nope')
      .set('Idempotency-Key', 'k1')
      .send({ identifier: 'x' })
      .expect(401);
    await t.api().post('/v1/tenants').set('Idempotency-Key', 'k1').send({ identifier: 'after-401' }).expect(201);
  });

  it('serves the OpenAPI document and the Swagger UI', async () => {
    const json = await request(server()).get('/api-json').expect(200);
    expect(json.body.openapi).toMatch(/^3\./);
    await request(server()).get('/api').expect(200);
  });
});
