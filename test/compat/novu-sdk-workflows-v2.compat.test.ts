/**
 * `/v2/workflows` through Novu's own SDK (`@novu/api`, whose zod schemas validate every response), in
 * both modes: embedded (PGlite, the store's queue) and production-shaped (PostgreSQL, Bull on Redis).
 * One workflow entity serves v1 and v2: what one API writes, the other reads, edits and triggers.
 */
import { Novu } from '@novu/api';
import { WORKFLOW_REPOSITORY, WorkflowRepository, stepMetadata } from '@app/workflows';
import { AddressInfo } from 'node:net';
import { NOVU_API_VERSION, sdk, sdkFails } from '../support/novu-api';
import { describeEachMode, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

describeEachMode(`@novu/api ${NOVU_API_VERSION}: /v2/workflows (%s)`, (store) => {
  let t: TestApp;
  let novu: Novu;
  let baseUrl: string;

  beforeAll(async () => {
    t = await startTestApp({ store, redis: store === 'postgres' });
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}`;
    novu = new Novu({ secretKey: t.apiKey, serverURL: baseUrl, retryConfig: { strategy: 'none' } });
  });
  afterAll(() => t?.close());

  async function http(method: string, path: string, body?: unknown) {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: `ApiKey ${t.apiKey}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** The in-app messages of a subscriber, newest first. */
  async function inApp(subscriberId: string, count: number) {
    return waitFor(async () => {
      const res = await http('GET', `/v1/messages?subscriberId=${subscriberId}&channel=in_app&limit=50`);
      // 404 until the fan-out has made the subscriber
      if (res.status === 404) return false;
      if (res.status !== 200) throw new Error(`GET /v1/messages answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.data.length >= count && res.body.data;
    });
  }

  it('create → get (by workflowId, id, slug) → the step → list → patch → update → delete', async () => {
    const workflowId = uniqueName('v2-orders').toLowerCase();
    const created = await sdk('workflows.create', () =>
      novu.workflows.create({
        name: 'Order shipped',
        workflowId,
        active: true,
        tags: ['orders', 'v2'],
        payloadSchema: { type: 'object', properties: { orderId: { type: 'string', default: 'A-1' } } },
        preferences: { user: { all: { enabled: true, readOnly: false }, channels: { sms: { enabled: false } } } },
        severity: 'high',
        steps: [
          {
            name: 'In-app',
            type: 'in_app',
            controlValues: { subject: 'Shipped', body: 'Order {{ payload.orderId | upcase }}', redirect: { url: 'https://example.com/o' } },
          },
          { name: 'Wait', type: 'delay', controlValues: { type: 'regular', amount: 1, unit: 'hours' } },
          { name: 'Email', type: 'email', controlValues: { subject: 'Order {{payload.orderId}}', body: '<p>Hi</p>', editorType: 'html' } },
          { name: 'Limit', type: 'throttle', controlValues: { amount: 1, unit: 'hours', threshold: 5 } },
        ],
      }),
    );
    const workflow = created.result;
    expect(workflow).toMatchObject({
      name: 'Order shipped',
      workflowId,
      active: true,
      status: 'ACTIVE',
      origin: 'novu-cloud',
      severity: 'high',
      tags: ['orders', 'v2'],
      payloadExample: { orderId: 'A-1' },
      preferences: { user: { all: { enabled: true, readOnly: false }, channels: { sms: { enabled: false } } } },
    });
    expect(workflow.slug).toBe(`order-shipped_wf_${workflow.id}`);
    expect(workflow.steps.map((s) => [s.stepId, s.type])).toEqual([
      ['in-app', 'in_app'],
      ['wait', 'delay'],
      ['email', 'email'],
      ['limit', 'throttle'],
    ]);
    expect(workflow.steps[0].controlValues).toMatchObject({ subject: 'Shipped', redirect: { url: 'https://example.com/o' } });

    for (const reference of [workflowId, workflow.id, workflow.slug]) {
      expect((await sdk(`workflows.get ${reference}`, () => novu.workflows.get(reference))).result.id).toBe(workflow.id);
    }
    const step = await sdk('workflows.steps.retrieve', () => novu.workflows.steps.retrieve(workflowId, 'email'));
    expect(step.result).toMatchObject({ stepId: 'email', type: 'email', workflowId, workflowDatabaseId: workflow.id });
    expect(step.result.controlValues).toMatchObject({ subject: 'Order {{payload.orderId}}', editorType: 'html' });
    expect(Object.keys((step.result.variables as { properties: { steps: { properties: object } } }).properties.steps.properties)).toEqual(['in-app', 'wait']);

    const listed = await sdk('workflows.list', () => novu.workflows.list({ query: workflowId, tags: ['v2'], status: ['ACTIVE'], limit: 5 }));
    expect(listed.result.totalCount).toBe(1);
    expect(listed.result.workflows[0]).toMatchObject({ workflowId, stepTypeOverviews: ['in_app', 'delay', 'email', 'throttle'] });
    expect((await sdk('workflows.list INACTIVE', () => novu.workflows.list({ query: workflowId, status: ['INACTIVE'] }))).result.totalCount).toBe(0);

    const patched = await sdk('workflows.patch', () => novu.workflows.patch({ active: false, description: 'paused' }, workflowId));
    expect(patched.result).toMatchObject({ active: false, status: 'INACTIVE', description: 'paused' });
    expect(patched.result.steps.map((s) => s.id)).toEqual(workflow.steps.map((s) => s.id));

    // PUT: the email step sent with its id keeps it, the in-app one by its stepId; the delay is removed; a new SMS step is added.
    const updated = await sdk('workflows.update', () =>
      novu.workflows.update(
        {
          name: 'Order on its way',
          preferences: {},
          steps: [
            { stepId: 'in-app', name: 'In-app', type: 'in_app', controlValues: { body: 'On its way' } },
            { id: workflow.steps[2].id, name: 'Email renamed', type: 'email', controlValues: { subject: 'New subject', body: '<p>x</p>', editorType: 'html' } },
            { name: 'Text', type: 'sms', controlValues: { body: 'Order {{payload.orderId}}' } },
          ],
        },
        workflowId,
      ),
    );
    expect(updated.result.name).toBe('Order on its way');
    expect(updated.result.steps.map((s) => [s.stepId, s.type])).toEqual([
      ['in-app', 'in_app'],
      ['email', 'email'],
      ['text', 'sms'],
    ]);
    expect(updated.result.steps[0].id).toBe(workflow.steps[0].id);
    expect(updated.result.steps[1].id).toBe(workflow.steps[2].id);

    await sdk('workflows.delete', () => novu.workflows.delete(workflowId));
    await sdkFails('workflows.get after delete', 404, () => novu.workflows.get(workflowId));
  });

  it('refuses custom and tool steps (422 not_supported), controls of the wrong type, and a layout the environment lacks', async () => {
    const base = { name: 'Bad', workflowId: uniqueName('bad').toLowerCase() };
    const custom = await sdkFails('custom step', 422, () => novu.workflows.create({ ...base, steps: [{ name: 'C', type: 'custom', controlValues: {} }] }));
    expect(JSON.parse(custom.body)).toMatchObject({ code: 'not_supported' });
    const wrong = await http('POST', '/v2/workflows', { ...base, steps: [{ name: 'S', type: 'sms', controlValues: { body: 5 } }] });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toHaveProperty(['steps.0.controlValues.body']);
    const layout = await http('POST', '/v2/workflows', { ...base, steps: [{ name: 'E', type: 'email', controlValues: { subject: 's', layoutId: 'brand' } }] });
    expect(layout.status).toBe(422);
    expect(layout.body.errors).toHaveProperty(['steps.0.controlValues.layoutId']);
    const throttle = await http('POST', '/v2/workflows', { ...base, steps: [{ name: 'T', type: 'throttle', controlValues: { amount: 1, unit: 'hours' } }] });
    expect(throttle.status).toBe(422);
    expect(Object.keys(throttle.body.errors)).toEqual(expect.arrayContaining(['steps.0.controlValues.threshold']));
    expect((await http('GET', `/v2/workflows/${base.workflowId}`)).status).toBe(404);
  });

  it('shows an HTTP request step’s secret headers masked, and a read-then-write round trip keeps the secret', async () => {
    const workflowId = uniqueName('v2-http').toLowerCase();
    const headers = [
      { key: 'Authorization', value: 'Bearer s3cr3t-token' },
      { key: 'X-Trace', value: '{{payload.trace}}' },
    ];
    const created = await sdk('workflows.create http', () =>
      novu.workflows.create({
        name: 'Hook',
        workflowId,
        steps: [{ name: 'Call', type: 'http_request', controlValues: { method: 'POST', url: 'https://example.com/hook', headers } }],
      }),
    );
    const shown = created.result.steps[0].controlValues as { headers: { key: string; value: string }[] };
    expect(shown.headers).toEqual([
      { key: 'Authorization', value: 'Bearer ****' },
      { key: 'X-Trace', value: '{{payload.trace}}' },
    ]);
    expect(JSON.stringify(created.result)).not.toContain('s3cr3t');
    await sdk('workflows.update http', () =>
      novu.workflows.update(
        {
          name: 'Hook',
          preferences: {},
          steps: [{ id: created.result.steps[0].id, name: 'Call', type: 'http_request', controlValues: created.result.steps[0].controlValues }],
        },
        workflowId,
      ),
    );
    const me = (await http('GET', '/v1/environments/me')).body.data;
    const scope = { organizationId: me._organizationId, environmentId: me._id };
    const stored = await t.app.get<WorkflowRepository>(WORKFLOW_REPOSITORY).findByTriggerIdentifier(scope, workflowId);
    expect(stepMetadata(stored!.steps[0], 'http_request')?.headers).toEqual(headers);
  });

  it('payloadSchema: its defaults fill the payload; with validatePayload a payload it refuses gets 400 and the schema’s errors, nothing stored', async () => {
    const subscriberId = uniqueName('sub');
    const workflowId = uniqueName('v2-schema').toLowerCase();
    const payloadSchema = {
      type: 'object',
      properties: { orderId: { type: 'string' }, status: { type: 'string', default: 'shipped' }, items: { type: 'integer', minimum: 1 } },
      required: ['orderId'],
    };
    await sdk('workflows.create schema', () =>
      novu.workflows.create({
        name: 'Schema',
        workflowId,
        active: true,
        payloadSchema,
        validatePayload: true,
        steps: [{ name: 'In-app', type: 'in_app', controlValues: { body: '{{payload.orderId}} {{payload.status}}' } }],
      }),
    );
    const refusedTransaction = uniqueName('txn');
    const refused = await http('POST', '/v1/events/trigger', { name: workflowId, to: subscriberId, payload: { items: 0 }, transactionId: refusedTransaction });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_payload' });
    expect(Object.keys(refused.body.errors).sort()).toEqual(['payload', 'payload.items']);
    expect(refused.body.errors['payload.items']).toMatchObject({ value: 0, messages: [expect.stringContaining('>= 1')] });
    // Refused before anything is stored: the transactionId stays free.
    expect(
      (await http('POST', '/v1/events/trigger', { name: workflowId, to: subscriberId, payload: { orderId: 'A-6' }, transactionId: refusedTransaction })).status,
    ).toBe(201);

    expect((await inApp(subscriberId, 1))[0].content).toBe('A-6 shipped');

    // Without validatePayload the defaults still fill in, and nothing is refused.
    await sdk('workflows.patch validatePayload off', () => novu.workflows.patch({ validatePayload: false }, workflowId));
    expect((await http('POST', '/v1/events/trigger', { name: workflowId, to: subscriberId, payload: { items: 0 } })).status).toBe(201);
    expect((await inApp(subscriberId, 2)).map((m: { content: string }) => m.content)).toEqual([' shipped', 'A-6 shipped']);
  });

  it('one workflow behind v1 and v2: a v2 workflow triggers and renders with Liquid, a v1 workflow reads and edits through v2', async () => {
    const subscriberId = uniqueName('sub');
    const v2Id = uniqueName('v2-liquid').toLowerCase();
    await sdk('workflows.create', () =>
      novu.workflows.create({
        name: 'Liquid',
        workflowId: v2Id,
        active: true,
        steps: [{ name: 'In-app', type: 'in_app', controlValues: { body: 'Hi {{ payload.name | upcase }}' } }],
      }),
    );
    // v1 reads it: the same steps as templates.
    const v1Read = await http('GET', `/v1/workflows/${v2Id}`);
    expect(v1Read.status).toBe(200);
    expect(v1Read.body.data.steps[0].template).toMatchObject({ type: 'in_app', content: 'Hi {{ payload.name | upcase }}' });
    await sdk('trigger', () => novu.trigger({ workflowId: v2Id, to: subscriberId, payload: { name: 'ada' } }));
    expect((await inApp(subscriberId, 1))[0].content).toBe('Hi ADA');

    // A v1 workflow, read and then edited through v2.
    const v1Id = uniqueName('v1-made').toLowerCase();
    const v1 = await http('POST', '/v1/workflows', {
      name: 'Made in v1',
      identifier: v1Id,
      active: true,
      critical: true,
      steps: [
        { name: 'Bell', template: { type: 'in_app', content: 'v1 {{payload.n}}' } },
        { template: { type: 'digest' }, metadata: { type: 'regular', amount: 5, unit: 'minutes', backoff: true, backoffAmount: 1, backoffUnit: 'minutes' } },
      ],
    });
    expect(v1.status).toBe(201);
    const read = await sdk('workflows.get v1', () => novu.workflows.get(v1Id));
    expect(read.result).toMatchObject({ origin: 'novu-cloud-v1', preferences: { user: { all: { readOnly: true } } } });
    expect(read.result.steps.map((s) => [s.stepId, s.controlValues])).toEqual([
      ['bell', expect.objectContaining({ body: 'v1 {{payload.n}}' })],
      ['digest', { type: 'regular', amount: 5, unit: 'minutes', lookBackWindow: { amount: 1, unit: 'minutes' } }],
    ]);
    await sdk('workflows.update v1', () =>
      novu.workflows.update(
        {
          name: 'Made in v1',
          active: true,
          preferences: {},
          steps: [{ stepId: 'bell', name: 'Bell', type: 'in_app', controlValues: { body: 'v2 edit {{ payload.n | plus: 1 }}' } }],
        },
        v1Id,
      ),
    );
    await sdk('trigger v1', () => novu.trigger({ workflowId: v1Id, to: subscriberId, payload: { n: 1 } }));
    const messages = await inApp(subscriberId, 2);
    expect(messages.map((m: { content: string }) => m.content)).toContain('v2 edit 2');
  });
});
