import request from 'supertest';
import { TestApp, startTestApp } from '../support/test-app';

/** The generated OpenAPI document describes every endpoint, parameter and field. */
describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: any;
  beforeAll(async () => {
    t = await startTestApp({ worker: false });
    doc = (await request(t.app.getHttpServer()).get('/api-json').expect(200)).body;
  });
  afterAll(() => t.close());

  it('has a summary for every operation and a description for every parameter', () => {
    const missing: string[] = [];
    for (const [path, operations] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        if (!operation.summary) missing.push(`${method.toUpperCase()} ${path}: summary`);
        for (const parameter of operation.parameters ?? []) {
          if (!parameter.description) missing.push(`${method.toUpperCase()} ${path}: parameter ${parameter.name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('describes every field of every schema', () => {
    const missing: string[] = [];
    for (const [name, schema] of Object.entries<any>(doc.components.schemas)) {
      for (const [field, property] of Object.entries<any>(schema.properties ?? {})) {
        if (!property.description) missing.push(`${name}.${field}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('covers the interface endpoints', () => {
    for (const path of [
      '/v1/events/trigger',
      '/v1/events/trigger/{transactionId}',
      '/v1/messages',
      '/v1/messages/transaction/{transactionId}',
      '/v1/notifications/{notificationId}',
      '/v1/integrations',
      '/v1/integrations/{integrationId}',
      '/v1/integrations/active',
      '/v2/subscribers',
      '/v2/subscribers/{subscriberId}',
      '/v2/subscribers/{subscriberId}/preferences',
      '/v1/subscribers/{subscriberId}/credentials',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });

  it("the README's first workflow and Swagger's examples succeed, in either order, on a fresh start", async () => {
    const example = (path: string) => {
      const examples = doc.paths[path].post.requestBody.content['application/json'].examples;
      return (Object.values(examples)[0] as { value: object }).value;
    };
    await t
      .api()
      .post('/v1/workflows')
      .send({ name: 'Welcome', active: true, steps: [{ template: { type: 'in_app', content: 'Hi {{payload.name}}' } }] })
      .expect(201);
    await t.api().post('/v1/workflows').send(example('/v1/workflows')).expect(201);
    const triggered = await t.api().post('/v1/events/trigger').send(example('/v1/events/trigger')).expect(201);
    expect(triggered.body.data).toMatchObject({ acknowledged: true, status: 'processed' });
  });
});
