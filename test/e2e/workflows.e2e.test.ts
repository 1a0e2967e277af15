import { WorkflowResponse$inboundSchema } from '@novu/api/models/components';
import { describeEachStore, startTestApp, TestApp } from '../support/test-app';

const emailStep = {
  name: 'Welcome email',
  template: { type: 'email', subject: 'Hi {{subscriber.firstName}}', content: 'Order {{payload.orderId}} for {{customerName}}' },
};
const inAppStep = {
  template: {
    type: 'in_app',
    content: 'You have a task',
    cta: { type: 'redirect', data: { url: '/tasks/{{payload.taskId}}' }, action: { buttons: [{ type: 'primary', content: 'Open' }] } },
  },
  filters: [{ isNegated: false, type: 'GROUP', value: 'AND', children: [{ field: 'plan', value: 'pro', operator: 'EQUAL', on: 'subscriber' }] }],
};
const digestStep = { template: { type: 'digest' }, metadata: { type: 'regular', amount: 5, unit: 'minutes', digestKey: 'postId' } };
const delayStep = { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } };

describeEachStore('workflows (%s)', (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ store });
  });
  afterAll(() => t.close());

  const create = (body: Record<string, unknown>) => t.api().post('/v1/workflows').send(body);

  it('creates a workflow in the "Workflow template" shape', async () => {
    const res = await create({
      name: 'Order Shipped!',
      description: 'Tells people',
      tags: ['orders'],
      active: true,
      critical: false,
      preferenceSettings: { sms: false },
      data: { team: 'growth' },
      steps: [emailStep, inAppStep, digestStep, delayStep],
    }).expect(201);
    const w = res.body.data;
    expect(w).toMatchObject({
      name: 'Order Shipped!',
      description: 'Tells people',
      active: true,
      draft: false,
      critical: false,
      deleted: false,
      tags: ['orders'],
      data: { team: 'growth' },
      preferenceSettings: { in_app: true, email: true, sms: false, chat: true, push: true },
      triggers: [{ type: 'event', identifier: 'order-shipped', subscriberVariables: [{ name: 'firstName' }] }],
      notificationGroup: { name: 'General', _id: w._notificationGroupId },
    });
    expect(w.triggers[0].variables.map((v: { name: string }) => v.name).sort()).toEqual(['customerName', 'orderId', 'taskId']);
    expect(w._id).toMatch(/^[0-9a-f]{24}$/);
    for (const key of ['_organizationId', '_environmentId', '_creatorId', '_notificationGroupId', 'createdAt', 'updatedAt']) {
      expect(typeof w[key]).toBe('string');
    }
    expect(w).toMatchObject({ deletedAt: '', deletedBy: '' }); // required strings in Novu's schema
    expect(Object.values(w)).not.toContain(null);
    expect(() => WorkflowResponse$inboundSchema.parse(w)).not.toThrow();
    expect(w.steps).toHaveLength(4);
    const [email, inApp, digest, delay] = w.steps;
    expect(email).toMatchObject({ name: 'Welcome email', active: true, shouldStopOnFail: false, filters: [], variants: [] });
    expect(email.template).toMatchObject({ type: 'email', subject: 'Hi {{subscriber.firstName}}', _id: email._templateId });
    expect(typeof email.uuid).toBe('string');
    expect(email).not.toHaveProperty('metadata');
    expect(inApp.filters).toEqual(inAppStep.filters);
    expect(inApp.template.cta).toEqual(inAppStep.template.cta);
    expect(digest.metadata).toEqual({ type: 'regular', amount: 5, unit: 'minutes', digestKey: 'postId' });
    expect(delay.metadata).toEqual({ type: 'regular', amount: 1, unit: 'hours' });
  });

  it("accepts Novu's dynamic delay (metadata type dynamic, dynamicKey) and refuses a dynamicKey that is no payload path", async () => {
    const dynamic = { template: { type: 'delay' }, metadata: { type: 'dynamic', dynamicKey: 'payload.sendAt' } };
    const res = await create({ name: 'Dynamic delay', steps: [dynamic, { template: { type: 'in_app', content: 'later' } }] }).expect(201);
    expect(res.body.data.steps[0].metadata).toEqual({ type: 'dynamic', dynamicKey: 'payload.sendAt' });
    const read = await t.api().get(`/v1/workflows/${res.body.data._id}`).expect(200);
    expect(read.body.data.steps[0].metadata).toEqual({ type: 'dynamic', dynamicKey: 'payload.sendAt' });

    for (const dynamicKey of [undefined, 'sendAt', 'payload.', 'payload..sendAt', 'payload.send at']) {
      const refused = await create({ name: 'Bad dynamic', steps: [{ template: { type: 'delay' }, metadata: { type: 'dynamic', dynamicKey } }] });
      expect({ dynamicKey, status: refused.status }).toEqual({ dynamicKey, status: 422 });
      expect(Object.keys(refused.body.errors)).toEqual(['steps.0.metadata.dynamicKey']);
    }
    const notString = await create({ name: 'Bad dynamic', steps: [{ template: { type: 'delay' }, metadata: { type: 'dynamic', dynamicKey: 7 } }] });
    expect(notString.status).toBe(422);
    expect(Object.keys(notString.body.errors)).toContain('steps.0.metadata.dynamicKey');
  });

  it("accepts Novu's previousStep filter parts and refuses one that names no earlier channel step", async () => {
    const first = { uuid: 'b6944995-a283-46bd-b55a-18625fd1d4fd', template: { type: 'in_app', content: 'first' } };
    const wait = { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } };
    // Novu's stored shape: operator EQUAL beside step and stepType, no field or value
    const novuPart = { operator: 'EQUAL', on: 'previousStep', step: first.uuid, stepType: 'unseen' };
    const followUp = (children: unknown[]) => ({ template: { type: 'email', subject: 's', content: 'c' }, filters: [{ value: 'AND', children }] });
    const res = await create({ name: 'Follow up', steps: [first, wait, followUp([novuPart]), followUp([{ on: 'previousStep', stepType: 'read' }])] }).expect(
      201,
    );
    const steps = res.body.data.steps;
    expect(steps[0].uuid).toBe(first.uuid);
    expect(steps[2].filters).toEqual([
      { isNegated: false, type: 'GROUP', value: 'AND', children: [{ on: 'previousStep', step: first.uuid, stepType: 'unseen' }] },
    ]);
    // without `step`: the nearest channel step before
    expect(steps[3].filters[0].children).toEqual([{ on: 'previousStep', step: steps[2].uuid, stepType: 'read' }]);

    const refused: [unknown[], unknown[], string][] = [
      [[first], [{ on: 'previousStep', step: first.uuid, stepType: 'opened' }], 'steps.1.filters.0.children.0.stepType'],
      [[first], [{ on: 'previousStep', step: first.uuid }], 'steps.1.filters.0.children.0.stepType'],
      [[first], [{ on: 'previousStep', step: 'no-such-step', stepType: 'read' }], 'steps.1.filters.0.children.0.step'],
      [[wait], [{ on: 'previousStep', stepType: 'read' }], 'steps.1.filters.0.children.0.step'],
      [[{ ...wait, uuid: 'the-delay' }], [{ on: 'previousStep', step: 'the-delay', stepType: 'read' }], 'steps.1.filters.0.children.0.step'],
      [[], [{ on: 'previousStep', stepType: 'read' }], 'steps.0.filters.0.children.0.step'],
      [[first], [{ on: 'payload', stepType: 'read' }], 'steps.1.filters.0.children.0.field'],
    ];
    for (const [before, children, field] of refused) {
      const bad = await create({ name: 'Bad follow up', steps: [...before, followUp(children)] });
      expect({ children, status: bad.status }).toEqual({ children, status: 422 });
      expect(Object.keys(bad.body.errors)).toContain(field);
    }
    // an update that drops the step a filter names is refused, and changes nothing
    const dropped = await t
      .api()
      .put(`/v1/workflows/${res.body.data._id}`)
      .send({ steps: [wait, followUp([novuPart])] })
      .expect(422);
    expect(Object.keys(dropped.body.errors)).toEqual(['steps.1.filters.0.children.0.step']);
    expect((await t.api().get(`/v1/workflows/${res.body.data._id}`).expect(200)).body.data.steps).toEqual(steps);
  });

  it('is inactive (a draft) unless active is sent, as Novu', async () => {
    const res = await create({ name: 'Quiet one', steps: [] }).expect(201);
    expect(res.body.data).toMatchObject({ active: false, draft: true, steps: [], tags: [], description: '' });
  });

  it('keeps email blocks, minus unknown fields', async () => {
    const blocks = [
      { type: 'text', content: 'Hello {{payload.name}}', styles: { textAlign: 'center' }, junk: 1 },
      { type: 'button', content: 'Go', url: 'https://x.test' },
    ];
    const res = await create({ name: 'Blocks', steps: [{ template: { type: 'email', subject: 's', content: blocks } }] }).expect(201);
    expect(res.body.data.steps[0].template.content).toEqual([
      { type: 'text', content: 'Hello {{payload.name}}', styles: { textAlign: 'center' } },
      { type: 'button', content: 'Go', url: 'https://x.test' },
    ]);
    expect(res.body.data.triggers[0].variables).toEqual([{ name: 'name' }]);
  });

  it('answers 409 when the trigger identifier is taken, given or derived', async () => {
    await create({ name: 'Taken', identifier: 'taken-id' }).expect(201);
    const res = await create({ name: 'Other', identifier: 'taken-id' }).expect(409);
    expect(res.body).toMatchObject({ statusCode: 409, message: 'Workflow with identifier taken-id already exists', code: 'workflow_identifier_taken' });
    await create({ name: 'Same Name' }).expect(201);
    await create({ name: 'same name' }).expect(409);
  });

  it('validates the body with field paths (422)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'name'],
      [{ name: 'x', steps: [{ template: { type: 'fax' } }] }, 'steps.0.template.type'],
      [{ name: 'x', steps: [{ template: { type: 'email', content: 42 } }] }, 'steps.0.template.content'],
      [{ name: 'x', steps: [{ template: { type: 'email', content: [{ type: 'image' }] } }] }, 'steps.0.template.content'],
      [{ name: 'x', steps: [{ template: { type: 'digest' }, metadata: { type: 'regular', amount: 5, unit: 'fortnights' } }] }, 'steps.0.metadata.unit'],
      [{ name: 'x', steps: [{ template: { type: 'digest' } }] }, 'steps.0.metadata'],
      [{ name: 'x', steps: [{ template: { type: 'digest' }, metadata: { type: 'regular', unit: 'minutes' } }] }, 'steps.0.metadata.amount'],
      [{ name: 'x', steps: [{ template: { type: 'digest' }, metadata: { type: 'backoff', amount: 1, unit: 'minutes' } }] }, 'steps.0.metadata.backoffAmount'],
      [
        { name: 'x', steps: [{ template: { type: 'digest' }, metadata: { type: 'timed', timed: { cronExpression: 'nope' } } }] },
        'steps.0.metadata.timed.cronExpression',
      ],
      [{ name: 'x', steps: [{ template: { type: 'delay' }, metadata: { type: 'scheduled' } }] }, 'steps.0.metadata.delayPath'],
      [{ name: 'x', steps: [{ template: { type: 'delay' }, metadata: { type: 'regular', amount: 1 } }] }, 'steps.0.metadata.unit'],
      [{ name: 'x', steps: [{ template: { type: 'email' }, filters: [{ value: 'XOR', children: [] }] }] }, 'steps.0.filters.0.value'],
      [
        {
          name: 'x',
          steps: [{ template: { type: 'email' }, filters: [{ value: 'AND', children: [{ field: 'a', value: '1', operator: 'SORTA', on: 'payload' }] }] }],
        },
        'steps.0.filters.0.children.0.operator',
      ],
      [{ name: 'x', steps: [{ template: { type: 'sms' }, variants: [{ template: { type: 'email' } }] }] }, 'steps.0.variants.0.template.type'],
      [{ name: 'x', preferenceSettings: { email: 'yes' } }, 'preferenceSettings.email'],
      [{ name: 'x', identifier: 'has spaces' }, 'identifier'],
      [{ name: '!!!', identifier: 'a/b' }, 'identifier'],
      [{ name: 'x', steps: 'nope' }, 'steps'],
      [{ name: 'x', steps: [{}] }, 'steps.0.template'],
      // an array where one object is declared (class-transformer would throw on it)
      [{ name: 'x', preferenceSettings: [{}] }, 'preferenceSettings'],
      [{ name: 'x', steps: [{ template: [{ type: 'in_app' }] }] }, 'steps.0.template'],
      [{ name: 'x', steps: [{ template: { type: 'in_app', content: 'x', cta: [{}] } }] }, 'steps.0.template.cta'],
      [{ name: 'x', steps: [{ template: { type: 'in_app', content: 'ok' } }, { active: true }] }, 'steps.1.template'],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect({ body, status: res.status }).toEqual({ body, status: 422 });
      expect(res.body.message).toBe('Validation Error');
      expect(Object.keys(res.body.errors)).toContain(field);
    }
  });

  it('gets a workflow by id or identifier; unknown and malformed ids are 404', async () => {
    const { body } = await create({ name: 'Fetch me', active: true }).expect(201);
    const byId = await t.api().get(`/v1/workflows/${body.data._id}`).expect(200);
    expect(byId.body.data).toEqual(body.data);
    await t.api().get('/v1/workflows/fetch-me').expect(200);
    const missing = await t.api().get('/v1/workflows/000000000000000000000000').expect(404);
    expect(missing.body).toMatchObject({ statusCode: 404, code: 'workflow_not_found' });
    await t.api().get('/v1/workflows/%24%7Bnot-an-id%7D').expect(404);
  });

  it('updates partially; steps sent with their _id keep their ids; identifier stays unique', async () => {
    const { body } = await create({ name: 'Editable', steps: [emailStep, delayStep] }).expect(201);
    const w = body.data;
    const [email] = w.steps;
    const res = await t
      .api()
      .put(`/v1/workflows/${w._id}`)
      .send({
        active: true,
        critical: true,
        steps: [{ _id: email._id, template: { type: 'email', subject: 'New', content: '{{payload.fresh}}' } }, { template: { type: 'sms', content: 'hi' } }],
      })
      .expect(200);
    const updated = res.body.data;
    expect(updated).toMatchObject({
      name: 'Editable',
      active: true,
      draft: false,
      critical: true,
      triggers: [{ identifier: 'editable', variables: [{ name: 'fresh' }] }],
    });
    expect(updated.steps[0]).toMatchObject({ _id: email._id, uuid: email.uuid, _templateId: email._templateId, template: { subject: 'New' } });
    expect(updated.steps[1].template.type).toBe('sms');
    expect(updated.createdAt).toBe(w.createdAt);
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(w.updatedAt));

    await create({ name: 'Neighbour', identifier: 'neighbour' }).expect(201);
    const clash = await t.api().put(`/v1/workflows/${w._id}`).send({ identifier: 'neighbour' }).expect(409);
    expect(clash.body.code).toBe('workflow_identifier_taken');
    const renamed = await t.api().put(`/v1/workflows/${w._id}`).send({ identifier: 'editable-2', name: 'Edited' }).expect(200);
    expect(renamed.body.data.triggers[0].identifier).toBe('editable-2');
    await t.api().get('/v1/workflows/editable').expect(404);

    const invalid = await t
      .api()
      .put(`/v1/workflows/${w._id}`)
      .send({ steps: [{ template: { type: 'delay' } }] })
      .expect(422);
    expect(Object.keys(invalid.body.errors)).toEqual(['steps.0.metadata']);
    await t.api().put('/v1/workflows/000000000000000000000000').send({ name: 'x' }).expect(404);
    // Nothing half-written by the refused updates.
    const after = await t.api().get(`/v1/workflows/${w._id}`).expect(200);
    expect(after.body.data).toEqual(renamed.body.data);
  });

  it('lists page by page with search, raw {data, totalCount, page, pageSize}', async () => {
    const { environmentId: _e, apiKey } = await t.createEnvironment('List env');
    const api = t.api(apiKey);
    for (const name of ['News alpha', 'News beta', 'Other', 'Newsletter']) await api.post('/v1/workflows').send({ name }).expect(201);
    const first = await api.get('/v1/workflows?page=0&limit=3').expect(200);
    expect(first.body).toMatchObject({ totalCount: 4, page: 0, pageSize: 3 });
    expect(first.body.data.map((w: { name: string }) => w.name)).toEqual(['Newsletter', 'Other', 'News beta']);
    const second = await api.get('/v1/workflows?page=1&limit=3').expect(200);
    expect(second.body.data.map((w: { name: string }) => w.name)).toEqual(['News alpha']);
    const search = await api.get('/v1/workflows?query=news').expect(200);
    expect(search.body).toMatchObject({ totalCount: 3, page: 0, pageSize: 10 });
    const bad = await api.get('/v1/workflows?limit=1000').expect(422);
    expect(Object.keys(bad.body.errors)).toEqual(['limit']);
    await api.get('/v1/workflows?page=-1').expect(422);
  });

  it('deletes softly: {data: true}, then 404, identifier free again', async () => {
    const { body } = await create({ name: 'Short lived' }).expect(201);
    const res = await t.api().delete(`/v1/workflows/${body.data._id}`).expect(200);
    expect(res.body).toEqual({ data: true });
    await t.api().get(`/v1/workflows/${body.data._id}`).expect(404);
    await t.api().delete(`/v1/workflows/${body.data._id}`).expect(404);
    await create({ name: 'Short lived' }).expect(201);
    const list = await t.api().get('/v1/workflows?query=short').expect(200);
    expect(list.body.totalCount).toBe(1);
  });

  it('keeps environments apart', async () => {
    const other = await t.createEnvironment('Isolated');
    const { body } = await create({ name: 'Mine only', identifier: 'mine-only' }).expect(201);
    const api = t.api(other.apiKey);
    await api.get(`/v1/workflows/${body.data._id}`).expect(404);
    await api.get('/v1/workflows/mine-only').expect(404);
    await api.put(`/v1/workflows/${body.data._id}`).send({ name: 'hijack' }).expect(404);
    await api.delete(`/v1/workflows/${body.data._id}`).expect(404);
    expect((await api.get('/v1/workflows?query=mine').expect(200)).body.totalCount).toBe(0);
    // The same identifier is free in another environment.
    await api.post('/v1/workflows').send({ name: 'Mine only', identifier: 'mine-only' }).expect(201);
    await t.api().get(`/v1/workflows/${body.data._id}`).expect(200);
  });

  it('documents every route in Swagger', async () => {
    const doc = (await t.api().get('/api-json').expect(200)).body;
    expect(Object.keys(doc.paths['/v1/workflows'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths['/v1/workflows/{workflowId}'])).toEqual(expect.arrayContaining(['get', 'put', 'delete']));
    expect(doc.components.schemas.WorkflowResponseDto).toBeDefined();
  });

  // Last in the block: it restarts the block's app on the same store, which costs one start where a
  // block of its own would cost two.
  it('reads back what was written before the restart', async () => {
    const { body } = await t
      .api()
      .post('/v1/workflows')
      .send({ name: 'Durable', active: true, steps: [emailStep, digestStep] })
      .expect(201);
    await t.close();
    const { dataDir, sqlSchema, apiKey } = t.options;
    t = await startTestApp({ store, dataDir, sqlSchema, apiKey });
    const res = await t.api().get(`/v1/workflows/${body.data._id}`).expect(200);
    expect(res.body.data).toEqual(body.data);
    await t.api().post('/v1/workflows').send({ name: 'Durable' }).expect(409);
  });
});
