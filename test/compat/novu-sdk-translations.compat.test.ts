/**
 * `/v2/translations` through Novu's own SDK (`@novu/api`, whose zod schemas validate every response),
 * in both modes: embedded (PGlite, the store's queue) and production-shaped (PostgreSQL, Bull on Redis).
 * Every translations operation, the uploads as the SDK sends them (multipart), and a delivery that
 * reads what they stored.
 */
import { Novu } from '@novu/api';
import { AddressInfo } from 'node:net';
import { NOVU_API_VERSION, sdk, sdkFails } from '../support/novu-api';
import { describeEachMode, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describeEachMode(`@novu/api ${NOVU_API_VERSION}: /v2/translations (%s)`, (store) => {
  let t: TestApp;
  let novu: Novu;

  beforeAll(async () => {
    t = await startTestApp({ store, redis: store === 'postgres' });
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    novu = new Novu({ secretKey: t.apiKey, serverURL: `http://127.0.0.1:${port}`, retryConfig: { strategy: 'none' } });
  });
  afterAll(() => t?.close());

  async function workflow(): Promise<string> {
    const workflowId = uniqueName('i18n').toLowerCase();
    await sdk('workflows.create', () =>
      novu.workflows.create({
        name: 'Welcome',
        workflowId,
        active: true,
        isTranslationEnabled: true,
        steps: [{ name: 'In-app', type: 'in_app', controlValues: { subject: '{{ t.subject }}', body: '{{ t.welcome.body }}' } }],
      }),
    );
    return workflowId;
  }

  it('create → retrieve → group → delete one locale → delete the group', async () => {
    const resourceId = await workflow();
    const content = { subject: 'Willkommen', welcome: { body: 'Hallo {{ subscriber.firstName }}' } };
    const created = await sdk('translations.create', () => novu.translations.create({ resourceId, resourceType: 'workflow', locale: 'de-DE', content }));
    expect(created).toMatchObject({ resourceId, resourceType: 'workflow', locale: 'de_DE', content });
    await sdk('translations.create', () =>
      novu.translations.create({ resourceId, resourceType: 'workflow', locale: 'en_US', content: { subject: 'Welcome' } }),
    );

    expect(await sdk('translations.retrieve', () => novu.translations.retrieve({ resourceType: 'workflow', resourceId, locale: 'de_DE' }))).toEqual(created);
    const group = await sdk('translations.groups.retrieve', () => novu.translations.groups.retrieve('workflow', resourceId));
    expect(group).toMatchObject({ resourceId, resourceType: 'workflow', resourceName: 'Welcome', locales: ['de_DE', 'en_US'] });

    await sdk('translations.delete', () => novu.translations.delete({ resourceType: 'workflow', resourceId, locale: 'de-DE' }));
    await sdkFails('translations.retrieve (deleted)', 404, () => novu.translations.retrieve({ resourceType: 'workflow', resourceId, locale: 'de_DE' }));
    await sdkFails('translations.delete (again)', 404, () => novu.translations.delete({ resourceType: 'workflow', resourceId, locale: 'de_DE' }));

    await sdk('translations.groups.delete', () => novu.translations.groups.delete('workflow', resourceId));
    await sdkFails('translations.groups.retrieve (deleted)', 404, () => novu.translations.groups.retrieve('workflow', resourceId));
    await sdkFails('translations.groups.delete (again)', 404, () => novu.translations.groups.delete('workflow', resourceId));
    await sdkFails('translations.create (no such workflow)', 404, () =>
      novu.translations.create({ resourceId: 'nope', resourceType: 'workflow', locale: 'de', content: {} }),
    );
  });

  it('upload: files named by locale, each stored; one that is not JSON fails alone', async () => {
    const resourceId = await workflow();
    const result = await sdk('translations.upload', () =>
      novu.translations.upload({
        resourceId,
        resourceType: 'workflow',
        files: [
          { fileName: 'fr_FR.json', content: json({ subject: 'Bienvenue' }) },
          { fileName: 'es.json', content: json({ subject: 'Bienvenido' }) },
          { fileName: 'it_IT.json', content: new TextEncoder().encode('not json') },
        ],
      }),
    );
    expect(result).toEqual({ totalFiles: 3, successfulUploads: 2, failedUploads: 1, errors: [expect.stringContaining("Failed to process file 'it_IT.json'")] });
    expect((await sdk('translations.groups.retrieve', () => novu.translations.groups.retrieve('workflow', resourceId))).locales).toEqual(['es', 'fr_FR']);
    await sdkFails('translations.upload (a file not named by locale)', 422, () =>
      novu.translations.upload({ resourceId, resourceType: 'workflow', files: [{ fileName: 'french.json', content: json({}) }] }),
    );
  });

  it('master JSON: import, upload, export', async () => {
    const [first, second] = [await workflow(), await workflow()];
    const imported = await sdk('translations.master.import', () =>
      novu.translations.master.import({ locale: 'de_DE', masterJson: { workflows: { [first]: { subject: 'Eins' }, gone: { subject: 'x' } } } }),
    );
    expect(imported).toEqual({ success: true, message: expect.stringContaining('Partial import'), successful: [first], failed: ['gone'] });
    const uploaded = await sdk('translations.master.upload', () =>
      novu.translations.master.upload({ file: { fileName: 'de_DE.json', content: json({ workflows: { [second]: { subject: 'Zwei' } } }) } }),
    );
    expect(uploaded).toMatchObject({ success: true, successful: [second] });

    const exported = await sdk('translations.master.retrieve', () => novu.translations.master.retrieve('de_DE'));
    expect(exported.workflows).toMatchObject({ [first]: { subject: 'Eins' }, [second]: { subject: 'Zwei' } });
    expect(exported.layouts).toEqual({});
    // without a locale: the environment's default (en_US), which has none of these
    expect((await sdk('translations.master.retrieve', () => novu.translations.master.retrieve())).workflows).not.toHaveProperty(first);
  });

  it('a trigger renders the subscriber’s locale, through the SDK too', async () => {
    const workflowId = await workflow();
    await sdk('translations.create', () =>
      novu.translations.create({ resourceId: workflowId, resourceType: 'workflow', locale: 'en_US', content: { subject: 'Welcome', welcome: { body: 'Hi' } } }),
    );
    await sdk('translations.upload', () =>
      novu.translations.upload({
        resourceId: workflowId,
        resourceType: 'workflow',
        files: [{ fileName: 'de.json', content: json({ subject: 'Willkommen', welcome: { body: 'Hallo {{ subscriber.firstName }}' } }) }],
      }),
    );
    const subscriberId = uniqueName('sub');
    await sdk('subscribers.create', () => novu.subscribers.create({ subscriberId, firstName: 'Ada', locale: 'de-AT' }));
    const { result } = await sdk('trigger', () => novu.trigger({ workflowId, to: subscriberId, payload: {} }));
    const message = await waitFor(async () => {
      const { result: messages } = await novu.messages.retrieve({ transactionId: [result.transactionId!], channel: 'in_app' });
      return messages.data[0];
    });
    expect({ subject: message.subject, content: message.content }).toEqual({ subject: 'Willkommen', content: 'Hallo Ada' });
  });
});
