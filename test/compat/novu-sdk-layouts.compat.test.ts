/**
 * `/v2/layouts` through Novu's own SDK (`@novu/api`, whose zod schemas validate every response), in
 * both modes: embedded (PGlite, the store's queue) and production-shaped (PostgreSQL, Bull on Redis).
 * Every layouts operation; one layout framing the emails of two v2 workflows (through a SendGrid
 * fake), a change to it in the next send, the default layout and none; a layout in use not deleted;
 * publishing layouts with the workflows that use them.
 */
import { Novu } from '@novu/api';
import { AddressInfo } from 'node:net';
import { SendgridFake } from '../fakes/email/sendgrid.fake';
import { FakeRequest } from '../fakes/vendor-fake';
import { NOVU_API_VERSION, sdk, sdkFails } from '../support/novu-api';
import { describeEachMode, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const frame = (header: string) =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><h1>${header}</h1>{{ content }}<p>For {{ subscriber.firstName }}</p></body></html>`;

describeEachMode(`@novu/api ${NOVU_API_VERSION}: /v2/layouts (%s)`, (store) => {
  let t: TestApp;
  let novu: Novu;
  let baseUrl: string;
  const sendgrid = new SendgridFake();

  beforeAll(async () => {
    await sendgrid.start();
    t = await startTestApp({ store, redis: store === 'postgres' });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    novu = client(t.apiKey);
    await emailSetup(novu, 'Development');
  });
  afterAll(async () => {
    await t?.close();
    await sendgrid.close();
  });

  const client = (secretKey: string) => new Novu({ secretKey, serverURL: baseUrl, retryConfig: { strategy: 'none' } });

  /** A SendGrid integration and a subscriber with an email address in the key's environment. */
  async function emailSetup(api: Novu, environment: string) {
    await sdk(`integrations.create (${environment})`, () =>
      api.integrations.create({
        providerId: 'sendgrid',
        channel: 'email',
        name: 'SendGrid',
        identifier: uniqueName('sendgrid'),
        active: true,
        credentials: { apiKey: sendgrid.apiKey, from: 'noreply@example.com', senderName: 'Acme', baseUrl: sendgrid.origin },
      }),
    );
    await sdk(`subscribers.create (${environment})`, () => api.subscribers.create({ subscriberId: 'ada', firstName: 'Ada', email: 'ada@example.com' }));
  }

  async function http(method: string, path: string, body?: unknown, key = t.apiKey) {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: `ApiKey ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  const html = (request: FakeRequest) => {
    const body = request.json();
    return {
      subject: body.subject as string,
      html: (body.content as { type: string; value: string }[]).find((part) => part.type === 'text/html')?.value ?? '',
    };
  };

  /** The email the fake accepted whose subject is `subject`. */
  const emailWith = (subject: string) => waitFor(async () => sendgrid.accepted.map(html).find((email) => email.subject === subject) ?? false, 30_000);

  async function v2EmailWorkflow(api: Novu, workflowId: string, controls: Record<string, unknown>) {
    return sdk(`workflows.create ${workflowId}`, () =>
      api.workflows.create({
        name: workflowId,
        workflowId,
        active: true,
        steps: [
          {
            name: 'Email',
            type: 'email',
            controlValues: { subject: '{{ payload.subject }}', body: '<p>Body of {{ payload.subject }}</p>', editorType: 'html', ...controls },
          },
        ],
      }),
    );
  }

  it('create → list → retrieve (by layoutId, id, slug) → update → duplicate → preview → usage → delete', async () => {
    const layoutId = uniqueName('brand').toLowerCase();
    const created = await sdk('layouts.create', () => novu.layouts.create({ layoutId, name: 'Brand', source: 'dashboard' }));
    expect(created.result).toMatchObject({ layoutId, name: 'Brand', isTranslationEnabled: false, origin: 'novu-cloud', type: 'BRIDGE' });
    expect(created.result.slug).toBe(`brand_ly_${created.result.id}`);
    expect(created.result.controls.values.email).toMatchObject({ editorType: 'html', body: expect.stringContaining('{{ content }}') });
    expect(created.result.controls.uiSchema).toMatchObject({ group: 'LAYOUT' });
    await sdkFails('layouts.create with a taken layoutId', 409, () => novu.layouts.create({ layoutId, name: 'Again' }));

    for (const reference of [layoutId, created.result.id, created.result.slug]) {
      expect((await sdk(`layouts.retrieve ${reference}`, () => novu.layouts.retrieve(reference))).result.id).toBe(created.result.id);
    }
    await sdkFails('layouts.retrieve unknown', 404, () => novu.layouts.retrieve('no-such-layout'));

    const updated = await sdk('layouts.update', () =>
      novu.layouts.update({ name: 'Brand 2', isTranslationEnabled: true, controlValues: { email: { body: frame('Acme'), editorType: 'html' } } }, layoutId),
    );
    expect(updated.result).toMatchObject({
      name: 'Brand 2',
      isTranslationEnabled: true,
      controls: { values: { email: { body: frame('Acme'), editorType: 'html' } } },
    });
    const noSlot = await http('PUT', `/v2/layouts/${layoutId}`, {
      name: 'x',
      controlValues: { email: { body: '<html><body>no slot</body></html>', editorType: 'html' } },
    });
    expect(noSlot).toMatchObject({ status: 422, body: { code: 'layout_invalid' } });
    expect(noSlot.body.errors).toHaveProperty(['controlValues.email.body']);
    const notDocument = await http('PUT', `/v2/layouts/${layoutId}`, {
      name: 'x',
      controlValues: { email: { body: '<p>{{ content }}</p>', editorType: 'html' } },
    });
    expect(notDocument.status).toBe(422);
    const block = await http('PUT', `/v2/layouts/${layoutId}`, { name: 'x', controlValues: { email: { body: '<p>{{ content }}</p>', editorType: 'block' } } });
    expect(block.status).toBe(422);

    const copy = await sdk('layouts.duplicate', () => novu.layouts.duplicate({ name: 'Brand Winter' }, layoutId));
    expect(copy.result).toMatchObject({ layoutId: 'brand-winter', name: 'Brand Winter', isDefault: false, isTranslationEnabled: false });
    expect(copy.result.controls.values).toEqual(updated.result.controls.values);
    await sdkFails('layouts.duplicate to a taken layoutId', 409, () => novu.layouts.duplicate({ name: 'x', layoutId }, layoutId));

    const listed = await sdk('layouts.list', () => novu.layouts.list({ query: 'brand', orderBy: 'name', orderDirection: 'ASC', limit: 10 }));
    expect(listed.result.layouts.map((l) => l.layoutId)).toEqual(expect.arrayContaining([layoutId, 'brand-winter']));
    expect(listed.result.totalCount).toBe(listed.result.layouts.length);
    const paged = await sdk('layouts.list page', () => novu.layouts.list({ limit: 1, offset: 0 }));
    expect(paged.result.layouts).toHaveLength(1);
    expect(paged.result.totalCount).toBeGreaterThanOrEqual(2);

    const preview = await sdk('layouts.generatePreview', () =>
      novu.layouts.generatePreview({ previewPayload: { subscriber: { firstName: 'Grace' } } }, layoutId),
    );
    expect(preview.result.result.type).toBe('email');
    expect(preview.result.result.preview?.body).toContain('<h1>Acme</h1>');
    expect(preview.result.result.preview?.body).toContain('For Grace');
    expect(preview.result.result.preview?.body).toContain('The email step’s body goes here');
    expect(preview.result.previewPayloadExample.subscriber).toMatchObject({ firstName: 'Grace', email: 'jane.doe@example.com' });
    const tried = await sdk('layouts.generatePreview other controls', () =>
      novu.layouts.generatePreview({ controlValues: { email: { body: frame('Tried {{ subscriber.lastName }}'), editorType: 'html' } } }, layoutId),
    );
    expect(tried.result.result.preview?.body).toContain('<h1>Tried Doe</h1>');
    const broken = await sdk('layouts.generatePreview broken', () =>
      novu.layouts.generatePreview({ controlValues: { email: { body: '<html><body>{{ content </body></html>', editorType: 'html' } } }, layoutId),
    );
    expect(broken.result.result.preview).toBeUndefined();

    expect((await sdk('layouts.usage', () => novu.layouts.usage(copy.result.id))).result).toEqual({ workflows: [] });
    await sdk('layouts.delete', () => novu.layouts.delete('brand-winter'));
    await sdkFails('layouts.retrieve after delete', 404, () => novu.layouts.retrieve('brand-winter'));
    await sdkFails('layouts.delete again', 404, () => novu.layouts.delete('brand-winter'));
  });

  it('one layout frames the emails of two workflows; a change to it shows in the next send; in use, it is not deleted', async () => {
    const layoutId = uniqueName('shared').toLowerCase();
    const layout = await sdk('layouts.create shared', () => novu.layouts.create({ layoutId, name: 'Shared' }));
    await sdk('layouts.update shared', () =>
      novu.layouts.update({ name: 'Shared', controlValues: { email: { body: frame('Version one'), editorType: 'html' } } }, layoutId),
    );
    const [first, second] = [uniqueName('orders').toLowerCase(), uniqueName('invoices').toLowerCase()];
    await v2EmailWorkflow(novu, first, { layoutId });
    // named by its _id, kept as its layoutId
    const byId = await v2EmailWorkflow(novu, second, { layoutId: layout.result.id });
    expect(byId.result.steps[0].controlValues).toMatchObject({ layoutId });
    const unknown = await http('POST', '/v2/workflows', {
      name: 'x',
      workflowId: uniqueName('x').toLowerCase(),
      steps: [{ name: 'E', type: 'email', controlValues: { subject: 's', body: '<p>x</p>', editorType: 'html', layoutId: 'no-such-layout' } }],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toHaveProperty(['steps.0.controlValues.layoutId']);

    const send = async (workflowId: string, subject: string) => {
      await sdk(`trigger ${workflowId}`, () => novu.trigger({ workflowId, to: 'ada', payload: { subject } }));
      return emailWith(subject);
    };
    const [a, b] = [uniqueName('a'), uniqueName('b')];
    for (const [workflowId, subject] of [
      [first, a],
      [second, b],
    ]) {
      const email = await send(workflowId, subject);
      expect(email.html).toContain('<h1>Version one</h1><p>Body of');
      expect(email.html).toContain(`Body of ${subject}</p><p>For Ada</p>`);
    }

    await sdk('layouts.update v2', () =>
      novu.layouts.update({ name: 'Shared', controlValues: { email: { body: frame('Version two'), editorType: 'html' } } }, layoutId),
    );
    const after = await send(first, uniqueName('after'));
    expect(after.html).toContain('<h1>Version two</h1>');
    expect(after.html).not.toContain('Version one');

    const preview = await sdk('workflows.steps.generatePreview', () =>
      novu.workflows.steps.generatePreview({ generatePreviewRequestDto: {}, workflowId: second, stepId: 'email' }),
    );
    expect(JSON.stringify(preview.result.result.preview)).toContain('Version two');

    const usage = await sdk('layouts.usage', () => novu.layouts.usage(layoutId));
    expect(usage.result.workflows).toEqual([
      { workflowId: first, name: first },
      { workflowId: second, name: second },
    ]);
    const refused = await http('DELETE', `/v2/layouts/${layoutId}`);
    expect(refused).toMatchObject({ status: 409, body: { code: 'layout_in_use', workflows: [{ workflowId: first }, { workflowId: second }] } });
    expect(refused.body.message).toContain(first);
    await sdkFails('layouts.delete in use', 409, () => novu.layouts.delete(layoutId));
    expect((await sdk('layouts.retrieve still there', () => novu.layouts.retrieve(layoutId))).result.id).toBe(layout.result.id);
  });

  it('a step without layoutId is sent in the default layout (else the service’s own); layoutId null sends the body alone', async () => {
    const layoutId = uniqueName('house').toLowerCase();
    await sdk('layouts.create house', () => novu.layouts.create({ layoutId, name: 'House' }));
    const made = await http('PUT', `/v2/layouts/${layoutId}`, {
      name: 'House',
      isDefault: true,
      controlValues: { email: { body: frame('House default'), editorType: 'html' } },
    });
    expect(made.body.data.isDefault).toBe(true);
    expect((await sdk('layouts.list', () => novu.layouts.list({ limit: 100 }))).result.layouts.filter((l) => l.isDefault).map((l) => l.layoutId)).toEqual([
      layoutId,
    ]);
    await sdkFails('layouts.delete the default', 409, () => novu.layouts.delete(layoutId));

    const [plain, none] = [uniqueName('plain').toLowerCase(), uniqueName('none').toLowerCase()];
    await v2EmailWorkflow(novu, plain, {});
    await v2EmailWorkflow(novu, none, { layoutId: null });
    const subject = uniqueName('default');
    await sdk('trigger plain', () => novu.trigger({ workflowId: plain, to: 'ada', payload: { subject } }));
    expect((await emailWith(subject)).html).toContain('<h1>House default</h1>');
    const alone = uniqueName('alone');
    await sdk('trigger none', () => novu.trigger({ workflowId: none, to: 'ada', payload: { subject: alone } }));
    expect((await emailWith(alone)).html).toBe(`<p>Body of ${alone}</p>`);

    await http('PUT', `/v2/layouts/${layoutId}`, { name: 'House', isDefault: false });
    expect((await sdk('layouts.retrieve', () => novu.layouts.retrieve(layoutId))).result.isDefault).toBe(false);
    const builtIn = uniqueName('builtin');
    await sdk('trigger plain again', () => novu.trigger({ workflowId: plain, to: 'ada', payload: { subject: builtIn } }));
    const email = await emailWith(builtIn);
    expect(email.html).not.toContain('House default');
    expect(email.html).toContain(`<title>${builtIn}</title>`);
  });

  it('publishing carries layouts: diff lists them and the workflows’ dependencies; the copy in the target is framed by the target’s layout', async () => {
    const layoutId = uniqueName('published').toLowerCase();
    await sdk('layouts.create published', () => novu.layouts.create({ layoutId, name: 'Published' }));
    await sdk('layouts.update published', () =>
      novu.layouts.update({ name: 'Published', controlValues: { email: { body: frame('From development'), editorType: 'html' } } }, layoutId),
    );
    const workflowId = uniqueName('framed').toLowerCase();
    await v2EmailWorkflow(novu, workflowId, { layoutId });

    const target = await sdk('environments.create', () => novu.environments.create({ name: uniqueName('Production'), color: '#ff5722' }));
    const targetKey = target.result.apiKeys![0].key;
    const prod = client(targetKey);
    await emailSetup(prod, 'target');

    const diff = await sdk('environments.diff', () => novu.environments.diff({}, target.result.id));
    const framed = diff.result.resources.find((r) => r.sourceResource?.id === workflowId)!;
    expect(framed.dependencies).toEqual([
      { resourceType: 'REGULAR', resourceId: layoutId, resourceName: 'Published', isBlocking: true, reason: 'LAYOUT_REQUIRED_FOR_WORKFLOW' },
    ]);
    const layoutEntry = diff.result.resources.find((r) => r.sourceResource?.id === layoutId)!;
    expect(layoutEntry.changes[0].action).toBe('added');

    // only the workflow: the layout it needs goes with it
    const published = await sdk('environments.publish workflow', () =>
      novu.environments.publish({ resources: [{ resourceType: 'REGULAR', resourceId: workflowId }] }, target.result.id),
    );
    expect(published.result.results[0].successful).toEqual([{ resourceType: 'REGULAR', resourceId: workflowId, resourceName: workflowId, action: 'created' }]);
    expect(published.result.results[1].successful).toEqual([{ resourceType: 'REGULAR', resourceId: layoutId, resourceName: 'Published', action: 'created' }]);
    const copy = await sdk('layouts.retrieve in the target', () => prod.layouts.retrieve(layoutId));
    expect(copy.result.controls.values.email?.body).toBe(frame('From development'));

    const subject = uniqueName('prod');
    await sdk('trigger in the target', () => prod.trigger({ workflowId, to: 'ada', payload: { subject } }));
    expect((await emailWith(subject)).html).toContain('<h1>From development</h1>');

    // a change in the target's own copy frames the target's emails; the next publish brings the source's back
    await sdk('layouts.update in the target', () =>
      prod.layouts.update({ name: 'Published', controlValues: { email: { body: frame('Edited in production'), editorType: 'html' } } }, layoutId),
    );
    const edited = uniqueName('edited');
    await sdk('trigger edited', () => prod.trigger({ workflowId, to: 'ada', payload: { subject: edited } }));
    expect((await emailWith(edited)).html).toContain('<h1>Edited in production</h1>');
    const dryRun = await sdk('environments.publish dryRun', () => novu.environments.publish({ dryRun: true }, target.result.id));
    expect(dryRun.result.results[1].skipped).toContainEqual({
      resourceType: 'REGULAR',
      resourceId: layoutId,
      resourceName: 'Published',
      reason: 'Dry run: would be updated',
    });
    const republished = await sdk('environments.publish', () => novu.environments.publish({}, target.result.id));
    expect(republished.result.results[1].successful).toContainEqual({
      resourceType: 'REGULAR',
      resourceId: layoutId,
      resourceName: 'Published',
      action: 'updated',
    });
    expect((await sdk('layouts.retrieve republished', () => prod.layouts.retrieve(layoutId))).result.controls.values.email?.body).toBe(
      frame('From development'),
    );
    expect((await http('POST', `/v2/environments/${target.result.id}/publish`, { resources: [{ resourceType: 'layout', resourceId: layoutId }] })).status).toBe(
      200,
    );
    expect(
      (await http('POST', `/v2/environments/${target.result.id}/publish`, { resources: [{ resourceType: 'translation', resourceId: layoutId }] })).status,
    ).toBe(400);
  });
});
