import { ApiClient, TestApp, describeEachStore, startTestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const SETTLED = ['completed', 'failed', 'canceled', 'skipped', 'merged'];
const TRANSLATION_WARNING = "Translation keys missing in the subscriber's locale: the default locale's text, or the key's fallback, was used";

/**
 * Translations as a delivery reads them: `{{ t.<key> }}` in a v2 workflow's content, in the subscriber's
 * locale (`de-AT` falls back to `de`, then to the environment's default locale, with a Warning), plural
 * forms through i18next, a missing key's fallback; the preview reads them too, publishing carries them,
 * deleting the workflow removes them. The upload routes take multipart forms only.
 */
describeEachStore('translations (%s)', (store) => {
  let t: TestApp;
  let api: ApiClient;

  beforeAll(async () => {
    t = await startTestApp({ store });
    api = t.api();
  });
  afterAll(() => t?.close());

  async function v2Workflow(steps: unknown[], isTranslationEnabled = true): Promise<string> {
    const workflowId = uniqueName('i18n').toLowerCase();
    await api.post('/v2/workflows').send({ name: 'Order', workflowId, active: true, isTranslationEnabled, steps }).expect(201);
    return workflowId;
  }

  async function translate(resourceId: string, locale: string, content: Record<string, unknown>) {
    await api.post('/v2/translations').send({ resourceId, resourceType: 'workflow', locale, content }).expect(200);
  }

  async function subscriber(locale: string): Promise<string> {
    const subscriberId = uniqueName('sub');
    await api.post('/v2/subscribers').send({ subscriberId, firstName: 'Ada', locale }).expect(201);
    return subscriberId;
  }

  /** Triggers the workflow; its in-app message (subject and content) and the job's execution details once settled. */
  async function deliver(workflowId: string, to: string, payload: Record<string, unknown> = {}) {
    const transactionId = (await api.post('/v1/events/trigger').send({ name: workflowId, to, payload }).expect(201)).body.data.transactionId;
    const jobs = await waitFor(async () => {
      const found = ((await api.get('/v1/notifications').query({ transactionId })).body.data?.[0]?.jobs ?? []) as any[];
      return found.length > 0 && found.every((job) => SETTLED.includes(job.status)) && found;
    });
    const [message] = (await api.get('/v1/messages').query({ transactionId, channel: 'in_app' }).expect(200)).body.data;
    const warnings = (jobs[0].executionDetails as any[]).filter((detail) => detail.detail === TRANSLATION_WARNING).map((detail) => JSON.parse(detail.raw));
    return { subject: message?.subject, content: message?.content, warnings };
  }

  const ORDER_STEP = {
    name: 'In-app',
    type: 'in_app',
    controlValues: { subject: '{{ t.subject }}', body: '{{ t.greeting }}: {{ t.cart.items | count: payload.n }}' },
  };

  let orders: string;
  beforeAll(async () => {
    orders = await v2Workflow([ORDER_STEP]);
    await translate(orders, 'en_US', {
      subject: 'Your order',
      greeting: 'Hello {{ subscriber.firstName }}',
      cart: { items_one: 'one item', items_other: '{{ count }} items' },
    });
    await translate(orders, 'de', {
      subject: 'Deine Bestellung',
      greeting: 'Hallo {{ subscriber.firstName }}',
      cart: { items_one: 'ein Artikel', items_other: '{{ count }} Artikel' },
    });
  });

  it('a subscriber with locale de-AT gets the German text (through de), plural forms by count, and no warning', async () => {
    const to = await subscriber('de-AT');
    expect(await deliver(orders, to, { n: 1 })).toEqual({ subject: 'Deine Bestellung', content: 'Hallo Ada: ein Artikel', warnings: [] });
    expect((await deliver(orders, to, { n: 3 })).content).toBe('Hallo Ada: 3 Artikel');
  });

  it('a subscriber with locale ja gets the default locale text, and a warning detail naming the keys', async () => {
    const to = await subscriber('ja');
    expect(await deliver(orders, to, { n: 2 })).toEqual({
      subject: 'Your order',
      content: 'Hello Ada: 2 items',
      warnings: [{ locale: 'ja', defaultLocale: 'en_US', fromDefaultLocale: ['cart.items', 'greeting', 'subject'], notFound: [] }],
    });
  });

  it('a missing key renders its fallback (the `default` given, else the key), never an empty string, with a warning', async () => {
    const workflowId = await v2Workflow([
      { name: 'In-app', type: 'in_app', controlValues: { body: "{{ t.notThere | default: 'Hi there' }} / {{ t.alsoMissing }}" } },
    ]);
    await translate(workflowId, 'en_US', { other: 'x' });
    expect(await deliver(workflowId, await subscriber('de'))).toMatchObject({
      content: 'Hi there / alsoMissing',
      warnings: [{ locale: 'de', defaultLocale: 'en_US', fromDefaultLocale: [], notFound: ['alsoMissing', 'notThere'] }],
    });
  });

  it('a workflow without translations enabled renders each key as its fallback, and the warning says why', async () => {
    const workflowId = await v2Workflow([ORDER_STEP], false);
    await translate(workflowId, 'en_US', { subject: 'Your order' });
    const { content, warnings } = await deliver(workflowId, await subscriber('en_US'), { n: 1 });
    expect(content).toBe('greeting: cart.items');
    expect(warnings).toEqual([{ locale: 'en_US', translationsDisabled: true, fromDefaultLocale: [], notFound: ['cart.items', 'greeting', 'subject'] }]);
  });

  it("the environment's default locale is the last fallback", async () => {
    const { apiKey } = await t.createEnvironment(uniqueName('German'));
    const german = t.api(apiKey);
    expect(
      (
        await german
          .patch('/v1/organizations/settings')
          .send({ defaultLocale: 'de-DE', targetLocales: ['fr_FR'] })
          .expect(200)
      ).body.data,
    ).toEqual({
      defaultLocale: 'de_DE',
      targetLocales: ['fr_FR'],
    });
    const workflowId = uniqueName('i18n').toLowerCase();
    await german
      .post('/v2/workflows')
      .send({ name: 'Order', workflowId, active: true, isTranslationEnabled: true, steps: [ORDER_STEP] })
      .expect(201);
    await german
      .post('/v2/translations')
      .send({ resourceId: workflowId, resourceType: 'workflow', locale: 'de_DE', content: { greeting: 'Guten Tag' } })
      .expect(200);
    await german.post('/v2/subscribers').send({ subscriberId: 'sato', locale: 'ja' }).expect(201);
    const transactionId = (
      await german
        .post('/v1/events/trigger')
        .send({ name: workflowId, to: 'sato', payload: { n: 1 } })
        .expect(201)
    ).body.data.transactionId;
    const message = await waitFor(async () => (await german.get('/v1/messages').query({ transactionId, channel: 'in_app' })).body.data?.[0]);
    expect(message.content).toBe('Guten Tag: cart.items');
    expect((await german.get('/v1/organizations/settings').expect(200)).body.data).toEqual({ defaultLocale: 'de_DE', targetLocales: ['fr_FR'] });
    expect((await german.patch('/v1/organizations/settings').send({ defaultLocale: 'not-a-locale' }).expect(422)).body.errors).toHaveProperty('defaultLocale');
  });

  it('the preview renders with the translations, in the preview subscriber’s locale', async () => {
    const res = await api
      .post(`/v2/workflows/${orders}/step/in-app/preview`)
      .send({ previewPayload: { subscriber: { locale: 'de_CH', firstName: 'Grace' }, payload: { n: 4 } } })
      .expect(201);
    expect(res.body.data.result.preview).toMatchObject({ subject: 'Deine Bestellung', body: 'Hallo Grace: 4 Artikel' });
  });

  it("an email step reads its layout's translations when the layout has them enabled", async () => {
    const layoutId = uniqueName('frame').toLowerCase();
    await api.post('/v2/layouts').send({ layoutId, name: 'Frame' }).expect(201);
    const body = '<!DOCTYPE html><html><body>{{ content }}<p>{{ t.footer }}</p></body></html>';
    await api
      .put(`/v2/layouts/${layoutId}`)
      .send({ name: 'Frame', isTranslationEnabled: true, controlValues: { email: { editorType: 'html', body } } })
      .expect(200);
    await api
      .post('/v2/translations')
      .send({ resourceId: layoutId, resourceType: 'layout', locale: 'de', content: { footer: 'Fußzeile' } })
      .expect(200);
    const email = { subject: '{{ t.subject }}', body: '<p>{{ t.greeting }}</p>', editorType: 'html', layoutId };
    const workflowId = await v2Workflow([{ name: 'Email', type: 'email', controlValues: email }]);
    await translate(workflowId, 'de', { subject: 'Betreff', greeting: 'Hallo' });
    const res = await api
      .post(`/v2/workflows/${workflowId}/step/email/preview`)
      .send({ previewPayload: { subscriber: { locale: 'de_AT' } } })
      .expect(201);
    expect(res.body.data.result.preview.subject).toBe('Betreff');
    expect(res.body.data.result.preview.body).toContain('<p>Hallo</p><p>Fußzeile</p>');

    // publishing the workflow carries the layout it needs, with the layout's translations
    const { environmentId, apiKey } = await t.createEnvironment(uniqueName('Production'));
    await api
      .post(`/v2/environments/${environmentId}/publish`)
      .send({ resources: [{ resourceType: 'REGULAR', resourceId: workflowId }] })
      .expect(200);
    const production = t.api(apiKey);
    expect((await production.get(`/v2/translations/layout/${layoutId}/de`).expect(200)).body.data.content).toEqual({ footer: 'Fußzeile' });

    // deleting the layout deletes its translations: a new layout of the same layoutId has none
    await production.delete(`/v2/workflows/${workflowId}`).expect(204);
    await production.put(`/v2/layouts/${layoutId}`).send({ name: 'Frame', isDefault: false }).expect(200);
    await production.delete(`/v2/layouts/${layoutId}`).expect(204);
    await production.post('/v2/layouts').send({ layoutId, name: 'Frame' }).expect(201);
    await production.get(`/v2/translations/group/layout/${layoutId}`).expect(404);
  });

  it('publishing a workflow carries its translations; deleting it removes them', async () => {
    const { environmentId, apiKey } = await t.createEnvironment(uniqueName('Production'));
    const production = t.api(apiKey);
    await api.put(`/v2/workflows/${orders}/sync`).send({ targetEnvironmentId: environmentId }).expect(200);
    const group = (await production.get(`/v2/translations/group/workflow/${orders}`).expect(200)).body.data;
    expect(group).toMatchObject({ resourceId: orders, resourceType: 'workflow', resourceName: 'Order', locales: ['de', 'en_US'] });
    expect((await production.get(`/v2/translations/workflow/${orders}/de`).expect(200)).body.data.content.subject).toBe('Deine Bestellung');

    // a locale gone from the source goes from the target at the next publish
    await api.delete(`/v2/translations/workflow/${orders}/de`).expect(204);
    await api.put(`/v2/workflows/${orders}/sync`).send({ targetEnvironmentId: environmentId }).expect(200);
    expect((await production.get(`/v2/translations/group/workflow/${orders}`).expect(200)).body.data.locales).toEqual(['en_US']);

    await production.delete(`/v2/workflows/${orders}`).expect(204);
    await production.get(`/v2/translations/group/workflow/${orders}`).expect(404);
  });

  it('refuses what is not a translation: a locale, content, a JSON body on an upload route, a form elsewhere', async () => {
    const workflowId = await v2Workflow([ORDER_STEP]);
    const refused = await api.post('/v2/translations').send({ resourceId: workflowId, resourceType: 'workflow', locale: '123', content: {} }).expect(422);
    expect(refused.body.errors).toHaveProperty('locale');
    const content = await api
      .post('/v2/translations')
      .send({ resourceId: workflowId, resourceType: 'workflow', locale: 'de', content: { a: 1 } })
      .expect(422);
    expect(content.body.errors).toHaveProperty(['content.a']);
    await api.post('/v2/translations').send({ resourceId: 'nope', resourceType: 'workflow', locale: 'de', content: {} }).expect(404);
    await api.get(`/v2/translations/workflow/${workflowId}/invalid-locale-123`).expect(422);
    await api.get(`/v2/translations/page/${workflowId}/de`).expect(422);
    await api.get('/v2/translations/master-json').query({ locale: 'invalid-locale' }).expect(422);
    await api.post('/v2/translations/upload').send({ resourceId: workflowId, resourceType: 'workflow' }).expect(422);
    const noResource = await api.post('/v2/translations/upload').attach('files', Buffer.from('{}'), 'de.json').expect(422);
    expect(noResource.body.errors).toHaveProperty('resourceId');
    await api.post('/v2/translations').field('resourceId', workflowId).expect(415);
  });
});
