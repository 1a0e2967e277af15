import { describeEachStore, startTestApp, TestApp } from '../support/test-app';

describeEachStore('tenants (%s)', (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ store });
  });
  afterAll(() => t?.close());

  it("creates a tenant (201) in Novu's shape and reads it back", async () => {
    const created = await t
      .api()
      .post('/v1/tenants')
      .send({ identifier: 'acme', name: 'Acme', data: { plan: 'pro' } })
      .expect(201);
    const tenant = created.body.data;
    expect(tenant).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      identifier: 'acme',
      name: 'Acme',
      data: { plan: 'pro' },
      _environmentId: expect.stringMatching(/^[0-9a-f]{24}$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(new Date(tenant.createdAt).toISOString()).toBe(tenant.createdAt);

    const fetched = await t.api().get('/v1/tenants/acme').expect(200);
    expect(fetched.body).toEqual({ data: tenant });
  });

  it('leaves name and data out when they were never set', async () => {
    const res = await t.api().post('/v1/tenants').send({ identifier: 'bare' }).expect(201);
    expect(res.body.data).not.toHaveProperty('name');
    expect(res.body.data).not.toHaveProperty('data');
  });

  it("answers a taken identifier with 409 and Novu's message", async () => {
    await t.api().post('/v1/tenants').send({ identifier: 'dup' }).expect(201);
    const res = await t.api().post('/v1/tenants').send({ identifier: 'dup', name: 'again' }).expect(409);
    expect(res.body.message).toMatch(/^Tenant with identifier: dup already exists under environment [0-9a-f]{24}$/);
    expect(res.body.code).toBe('tenant_identifier_taken');
  });

  it('validates the body with 422 field errors', async () => {
    const missing = await t.api().post('/v1/tenants').send({ name: 'no id' }).expect(422);
    expect(missing.body.message).toBe('Validation Error');
    expect(missing.body.errors.identifier.messages.length).toBeGreaterThan(0);
    const badTypes = await t.api().post('/v1/tenants').send({ identifier: 5, name: [], data: 'x' }).expect(422);
    expect(Object.keys(badTypes.body.errors).sort()).toEqual(['data', 'identifier', 'name']);
    await t
      .api()
      .patch('/v1/tenants/acme')
      .send({ data: [1, 2] })
      .expect(422);
  });

  it('answers an unknown identifier with 404 on get, patch and delete', async () => {
    const res = await t.api().get('/v1/tenants/nobody').expect(404);
    expect(res.body.message).toMatch(/^Tenant with identifier: nobody does not exist under environment/);
    await t.api().patch('/v1/tenants/nobody').send({ name: 'x' }).expect(404);
    await t.api().delete('/v1/tenants/nobody').expect(404);
  });

  it('patches only the fields given, and renames', async () => {
    await t
      .api()
      .post('/v1/tenants')
      .send({ identifier: 'p1', name: 'Before', data: { a: 1 } })
      .expect(201);
    const named = await t.api().patch('/v1/tenants/p1').send({ name: 'After' }).expect(200);
    expect(named.body.data).toMatchObject({ identifier: 'p1', name: 'After', data: { a: 1 } });
    const data = await t
      .api()
      .patch('/v1/tenants/p1')
      .send({ data: { b: 2 } })
      .expect(200);
    expect(data.body.data).toMatchObject({ name: 'After', data: { b: 2 } });
    const renamed = await t.api().patch('/v1/tenants/p1').send({ identifier: 'p2' }).expect(200);
    expect(renamed.body.data).toMatchObject({ identifier: 'p2', name: 'After', _id: named.body.data._id });
    await t.api().get('/v1/tenants/p1').expect(404);
    await t.api().get('/v1/tenants/p2').expect(200);
    await t.api().post('/v1/tenants').send({ identifier: 'p3' }).expect(201);
    const taken = await t.api().patch('/v1/tenants/p3').send({ identifier: 'p2' }).expect(409);
    expect(taken.body.message).toMatch(/^Tenant with identifier: p2 already exists/);
  });

  it('treats null as absent on create and as "remove" on patch', async () => {
    const created = await t.api().post('/v1/tenants').send({ identifier: 'nulls', name: null, data: null }).expect(201);
    expect(created.body.data).not.toHaveProperty('name');
    expect(created.body.data).not.toHaveProperty('data');
    await t
      .api()
      .patch('/v1/tenants/nulls')
      .send({ name: 'N', data: { x: 1 } })
      .expect(200);
    const cleared = await t.api().patch('/v1/tenants/nulls').send({ name: null, data: null }).expect(200);
    expect(cleared.body.data).not.toHaveProperty('name');
    expect(cleared.body.data).not.toHaveProperty('data');
    expect((await t.api().get('/v1/tenants/nulls').expect(200)).body.data).not.toHaveProperty('name');
  });

  it('deletes with 204 and no body', async () => {
    await t.api().post('/v1/tenants').send({ identifier: 'doomed' }).expect(201);
    const res = await t.api().delete('/v1/tenants/doomed').expect(204);
    expect(res.text).toBe('');
    await t.api().get('/v1/tenants/doomed').expect(404);
  });

  it('handles identifiers that need URL encoding', async () => {
    await t.api().post('/v1/tenants').send({ identifier: 'a b/c' }).expect(201);
    const res = await t
      .api()
      .get(`/v1/tenants/${encodeURIComponent('a b/c')}`)
      .expect(200);
    expect(res.body.data.identifier).toBe('a b/c');
  });

  describe('listing', () => {
    let list: TestApp['api'];
    beforeAll(async () => {
      const env = await t.createEnvironment(`Listing-${store}`);
      list = () => t.api(env.apiKey);
      for (let i = 0; i < 3; i++)
        await list()
          .post('/v1/tenants')
          .send({ identifier: `l${i}` })
          .expect(201);
    });

    it('returns {data, page, pageSize, hasMore} unwrapped, default page 0 and limit 10', async () => {
      const res = await list().get('/v1/tenants').expect(200);
      expect(res.body).toEqual({ data: expect.any(Array), page: 0, pageSize: 10, hasMore: false });
      expect(res.body.data.map((x: { identifier: string }) => x.identifier)).toEqual(['l0', 'l1', 'l2']);
    });

    it('pages with page and limit', async () => {
      const first = await list().get('/v1/tenants?page=0&limit=2').expect(200);
      expect(first.body).toMatchObject({ page: 0, pageSize: 2, hasMore: true });
      expect(first.body.data).toHaveLength(2);
      const second = await list().get('/v1/tenants?page=1&limit=2').expect(200);
      expect(second.body).toMatchObject({ page: 1, pageSize: 2, hasMore: false });
      expect(second.body.data.map((x: { identifier: string }) => x.identifier)).toEqual(['l2']);
    });

    it('rejects bad paging with 422', async () => {
      await list().get('/v1/tenants?limit=0').expect(422);
      await list().get('/v1/tenants?limit=101').expect(422);
      await list().get('/v1/tenants?page=-1').expect(422);
      await list().get('/v1/tenants?page=abc').expect(422);
    });
  });

  it('keeps environments apart: another key neither sees nor changes these tenants', async () => {
    const other = await t.createEnvironment(`Other-${store}`);
    await t.api().post('/v1/tenants').send({ identifier: 'private', name: 'Mine' }).expect(201);
    await t.api(other.apiKey).get('/v1/tenants/private').expect(404);
    await t.api(other.apiKey).patch('/v1/tenants/private').send({ name: 'Theirs' }).expect(404);
    await t.api(other.apiKey).delete('/v1/tenants/private').expect(404);
    const listed = await t.api(other.apiKey).get('/v1/tenants?limit=100').expect(200);
    expect(listed.body.data.map((x: { identifier: string }) => x.identifier)).not.toContain('private');
    // The same identifier is free in the other environment.
    const theirs = await t.api(other.apiKey).post('/v1/tenants').send({ identifier: 'private', name: 'Theirs' }).expect(201);
    expect(theirs.body.data._environmentId).toBe(other.environmentId);
    expect((await t.api().get('/v1/tenants/private').expect(200)).body.data.name).toBe('Mine');
  });

  it('documents every tenant route in the OpenAPI document', async () => {
    const doc = (await t.api().get('/api-json').expect(200)).body;
    expect(Object.keys(doc.paths['/v1/tenants']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v1/tenants/{identifier}']).sort()).toEqual(['delete', 'get', 'patch']);
    for (const name of ['CreateTenantRequestDto', 'UpdateTenantRequestDto', 'TenantResponseDto', 'TenantListResponseDto']) {
      for (const [field, schema] of Object.entries<{ description?: string }>(doc.components.schemas[name].properties)) {
        expect({ name, field, described: Boolean(schema.description) }).toEqual({ name, field, described: true });
      }
    }
  });

  // Last in the block: it restarts the block's app on the same store, which costs one start where a
  // block of its own would cost two.
  it('reads after a restart what was written before', async () => {
    const created = await t
      .api()
      .post('/v1/tenants')
      .send({ identifier: 'durable', name: 'D', data: { k: [1, 2] } })
      .expect(201);
    await t.close();
    const { dataDir, sqlSchema, apiKey } = t.options;
    t = await startTestApp({ store, dataDir, sqlSchema, apiKey });
    const res = await t.api().get('/v1/tenants/durable').expect(200);
    expect(res.body.data).toEqual(created.body.data);
  });
});
