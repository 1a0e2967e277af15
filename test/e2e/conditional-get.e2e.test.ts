import request from 'supertest';
import { startTestApp, TestApp } from '../support/test-app';

/** ETags and 304s as Novu's Express app gives them: clients and proxies that revalidate keep working. */
describe('conditional GET (ETag, If-None-Match)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ worker: false });
    await t.api().post('/v1/tenants').send({ identifier: 'etag-tenant', name: 'Before' }).expect(201);
  });
  afterAll(() => t?.close());

  it('answers a GET with a weak ETag, and 304 with no body when If-None-Match still holds', async () => {
    const first = await t.api().get('/v1/tenants/etag-tenant').expect(200);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await t.api().get('/v1/tenants/etag-tenant').set('If-None-Match', etag).expect(304);
    expect(again.text ?? '').toBe('');
    // one of several, and the strong form of the same tag, match too (weak comparison)
    await t.api().get('/v1/tenants/etag-tenant').set('If-None-Match', `"other", ${etag}`).expect(304);
    await t.api().get('/v1/tenants/etag-tenant').set('If-None-Match', etag.slice(2)).expect(304);
    await request(t.app.getHttpServer()).head('/v1/tenants/etag-tenant').set('Authorization', `ApiKey ${t.apiKey}`).set('If-None-Match', etag).expect(304);
  });

  it('answers in full once the resource changed, or when the client asks for no cache', async () => {
    const { etag } = (await t.api().get('/v1/tenants/etag-tenant').expect(200)).headers;
    await t.api().get('/v1/tenants/etag-tenant').set('If-None-Match', etag).set('Cache-Control', 'no-cache').expect(200);
    await t.api().patch('/v1/tenants/etag-tenant').send({ name: 'After' }).expect(200);
    const changed = await t.api().get('/v1/tenants/etag-tenant').set('If-None-Match', etag).expect(200);
    expect(changed.body.data.name).toBe('After');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('never answers 304 to anything but a successful GET or HEAD', async () => {
    // `*` holds for any current representation: a GET of an existing resource gets its 304 ...
    await t.api().get('/v1/tenants/etag-tenant').set('If-None-Match', '*').expect(304);
    // ... an error answer or a POST never does
    const missing = await t.api().get('/v1/tenants/no-such-tenant').expect(404);
    await t.api().get('/v1/tenants/no-such-tenant').set('If-None-Match', missing.headers.etag).expect(404);
    await t.api().get('/v1/tenants/no-such-tenant').set('If-None-Match', '*').expect(404);
    await t.api().post('/v1/tenants').set('If-None-Match', '*').send({ identifier: 'etag-tenant-2', name: 'New' }).expect(201);
  });
});
