/**
 * Wire compatibility with Novu's official TypeScript SDK, `@novu/api`: every call goes through the SDK,
 * which validates each response with its zod schemas. A `ResponseValidationError` is a wire-compat bug;
 * `sdk()` below turns it into a failure naming the call, the zod issues and the raw body.
 *
 * Written and run against @novu/api 3.19.1 (the version in use is printed in the suite name).
 * Notes on the SDK: it sends a random `idempotency-key` on every request, so these calls also exercise
 * the Idempotency-Key path; it unwraps single-key `{data}` bodies before validating them.
 * Not covered through the SDK: tenants (the SDK has no tenants API) and workflows (the SDK speaks
 * /v2/workflows; we serve Novu's v1 /v1/workflows, so they are created here with plain HTTP).
 */
import { Novu } from '@novu/api';
import { AddressInfo } from 'node:net';
import { SendgridFake } from '../fakes/email/sendgrid.fake';
import { NOVU_API_VERSION, sdk, sdkFails } from '../support/novu-api';
import { describeEachStore, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

describeEachStore(`@novu/api ${NOVU_API_VERSION} against the service (%s)`, (store) => {
  let t: TestApp;
  let novu: Novu;
  let baseUrl: string;
  /** The email provider behind every email step here: a SendGrid fake on loopback. */
  const sendgrid = new SendgridFake();

  beforeAll(async () => {
    await sendgrid.start();
    t = await startTestApp({ store });
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}`;
    novu = new Novu({ secretKey: t.apiKey, serverURL: baseUrl, retryConfig: { strategy: 'none' } });
  });
  afterAll(async () => {
    await t?.close();
    await sendgrid.close();
  });

  /** Our own API, for what the SDK does not cover (workflows). */
  async function http(method: string, path: string, body?: unknown) {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: `ApiKey ${t.apiKey}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  describe('errors', () => {
    it('401 bodies parse as the SDK ErrorDto', async () => {
      const stranger = new Novu({ secretKey: 'not-a-real-key-0000', serverURL: baseUrl, retryConfig: { strategy: 'none' } });
      const error = await sdkFails('subscribers.retrieve with a bad key', 401, () => stranger.subscribers.retrieve('x'));
      expect(JSON.parse(error.body).message).toBe('API Key not found');
    });
  });

  describe('integrations', () => {
    let emailId: string;

    it('create (201) with a live check of the credentials', async () => {
      const res = await sdk('integrations.create', () =>
        novu.integrations.create({
          name: 'SendGrid',
          identifier: uniqueName('sendgrid'),
          providerId: 'sendgrid',
          channel: 'email',
          credentials: { apiKey: sendgrid.apiKey, from: 'noreply@example.com', senderName: 'Acme', baseUrl: sendgrid.origin },
          active: true,
          check: true,
        }),
      );
      expect(res.result).toMatchObject({ providerId: 'sendgrid', channel: 'email', active: true });
      expect(res.result.credentials?.apiKey).not.toBe(sendgrid.apiKey);
      emailId = res.result.id!;
      expect(emailId).toMatch(/^[0-9a-f]{24}$/);
      expect(sendgrid.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v3/scopes']);
    });

    it('create with check: a key the vendor refuses is a 400 carrying its words, and nothing is stored', async () => {
      const identifier = uniqueName('sendgrid-bad');
      const error = await sdkFails('integrations.create with a refused key', 400, () =>
        novu.integrations.create({
          identifier,
          providerId: 'sendgrid',
          channel: 'email',
          credentials: { apiKey: 'SG.revoked', from: 'noreply@example.com', senderName: 'Acme', baseUrl: sendgrid.origin },
          active: true,
          check: true,
        }),
      );
      expect(JSON.parse(error.body).message).toContain('The provided authorization grant is invalid');
      const all = await sdk('integrations.list', () => novu.integrations.list());
      expect(all.result.map((i) => i.identifier)).not.toContain(identifier);
    });

    it('update with check runs the check on the merged credentials', async () => {
      await sdkFails('integrations.update to a refused key', 400, () =>
        novu.integrations.update({ credentials: { apiKey: 'SG.revoked' }, check: true }, emailId),
      );
      const res = await sdk('integrations.update with check', () => novu.integrations.update({ name: 'SendGrid (checked)', check: true }, emailId));
      expect(res.result).toMatchObject({ id: emailId, name: 'SendGrid (checked)' });
    });

    it('list', async () => {
      const res = await sdk('integrations.list', () => novu.integrations.list());
      expect(res.result.map((i) => i.id)).toContain(emailId);
    });

    it('listActive', async () => {
      const res = await sdk('integrations.listActive', () => novu.integrations.listActive());
      const providers = res.result.map((i) => i.providerId);
      expect(providers).toEqual(expect.arrayContaining(['sendgrid', 'novu']));
    });

    it('update', async () => {
      const res = await sdk('integrations.update', () => novu.integrations.update({ name: 'SendGrid (renamed)' }, emailId));
      expect(res.result).toMatchObject({ id: emailId, name: 'SendGrid (renamed)' });
    });

    it('delete answers the remaining integrations', async () => {
      const doomed = await sdk('integrations.create (to delete)', () =>
        novu.integrations.create({ providerId: 'discord', channel: 'chat', name: 'Doomed', identifier: uniqueName('doomed') }),
      );
      const res = await sdk('integrations.delete', () => novu.integrations.delete(doomed.result.id!));
      expect(Array.isArray(res.result)).toBe(true);
      expect(res.result.map((i) => i.id)).toContain(emailId);
    });
  });

  describe('subscribers, credentials, preferences and topics', () => {
    const subscriberId = uniqueName('sub');
    const email = `${subscriberId}@example.com`;
    let workflowId: string;
    let workflowIdentifier: string;

    beforeAll(async () => {
      // Integrations the credential endpoints need (active, of the provider used).
      await sdk('integrations.create discord', () =>
        novu.integrations.create({ providerId: 'discord', channel: 'chat', active: true, identifier: uniqueName('discord') }),
      );
      await sdk('integrations.create expo', () =>
        novu.integrations.create({
          providerId: 'expo',
          channel: 'push',
          active: true,
          identifier: uniqueName('expo'),
          credentials: { apiKey: 'expo-access-token' },
        }),
      );
    });

    it('subscribers.create (201)', async () => {
      const res = await sdk('subscribers.create', () =>
        novu.subscribers.create({ subscriberId, firstName: 'Ada', lastName: 'Lovelace', email, data: { plan: 'pro' } }),
      );
      expect(res.result).toMatchObject({ subscriberId, firstName: 'Ada', email, data: { plan: 'pro' } });
    });

    it('subscribers.retrieve, and 404 for an unknown one', async () => {
      const res = await sdk('subscribers.retrieve', () => novu.subscribers.retrieve(subscriberId));
      expect(res.result).toMatchObject({ subscriberId, lastName: 'Lovelace' });
      await sdkFails('subscribers.retrieve unknown', 404, () => novu.subscribers.retrieve(uniqueName('nobody')));
    });

    it('subscribers.patch', async () => {
      const res = await sdk('subscribers.patch', () => novu.subscribers.patch({ lastName: 'King', locale: 'en-GB' }, subscriberId));
      expect(res.result).toMatchObject({ subscriberId, firstName: 'Ada', lastName: 'King', locale: 'en-GB' });
    });

    it('subscribers.search by email, and by page', async () => {
      const byEmail = await sdk('subscribers.search email', () => novu.subscribers.search({ email }));
      expect(byEmail.result.data.map((s) => s.subscriberId)).toEqual([subscriberId]);
      expect(byEmail.result.next).toBeNull();

      await sdk('subscribers.create second', () => novu.subscribers.create({ subscriberId: uniqueName('sub2') }));
      const firstPage = await sdk('subscribers.search limit 1', () => novu.subscribers.search({ limit: 1 }));
      expect(firstPage.result.data).toHaveLength(1);
      expect(typeof firstPage.result.next).toBe('string');
      const secondPage = await sdk('subscribers.search after', () => novu.subscribers.search({ limit: 1, after: firstPage.result.next! }));
      expect(secondPage.result.data).toHaveLength(1);
      expect(secondPage.result.data[0].subscriberId).not.toBe(firstPage.result.data[0].subscriberId);
    });

    it('subscribers.create with a bad body answers 422 in the SDK ValidationErrorDto shape', async () => {
      const error = await sdkFails('subscribers.create invalid', 422, () => novu.subscribers.create({ subscriberId: subscriberId, email: 'not-an-email' }));
      expect(JSON.parse(error.body).errors).toBeDefined();
    });

    it('subscribers.credentials.update (PUT) and append (PATCH)', async () => {
      const put = await sdk('subscribers.credentials.update', () =>
        novu.subscribers.credentials.update(
          { providerId: 'discord', credentials: { webhookUrl: 'https://discord.example.com/api/webhooks/1/abc' } },
          subscriberId,
        ),
      );
      expect(put.result.channels?.map((c) => c.providerId)).toContain('discord');

      const appended = await sdk('subscribers.credentials.append', () =>
        novu.subscribers.credentials.append({ providerId: 'expo', credentials: { deviceTokens: ['token-a'] } }, subscriberId),
      );
      const again = await sdk('subscribers.credentials.append again', () =>
        novu.subscribers.credentials.append({ providerId: 'expo', credentials: { deviceTokens: ['token-b'] } }, subscriberId),
      );
      expect(appended.result.channels?.find((c) => c.providerId === 'expo')?.credentials.deviceTokens).toEqual(['token-a']);
      expect(again.result.channels?.find((c) => c.providerId === 'expo')?.credentials.deviceTokens?.sort()).toEqual(['token-a', 'token-b']);
    });

    it('subscribers.credentials.delete (204)', async () => {
      await sdk('subscribers.credentials.delete', () => novu.subscribers.credentials.delete(subscriberId, 'discord'));
      const res = await sdk('subscribers.retrieve after credentials.delete', () => novu.subscribers.retrieve(subscriberId));
      expect(res.result.channels?.map((c) => c.providerId) ?? []).not.toContain('discord');
    });

    it('workflows are created over /v1/workflows (not an SDK call)', async () => {
      const res = await http('POST', '/v1/workflows', {
        name: uniqueName('Compat workflow'),
        active: true,
        steps: [
          { name: 'In-app', template: { type: 'in_app', content: 'Hello {{payload.name}}' } },
          { name: 'Email', template: { type: 'email', subject: 'Hi', content: 'Hello {{payload.name}}' } },
        ],
      });
      expect(res.status).toBe(201);
      workflowId = res.body.data._id;
      workflowIdentifier = res.body.data.triggers[0].identifier;
    });

    it('subscribers.preferences.list', async () => {
      const res = await sdk('subscribers.preferences.list', () => novu.subscribers.preferences.list({ subscriberId }));
      expect(res.result.global.enabled).toBe(true);
      expect(res.result.workflows.map((w) => w.workflow.identifier)).toContain(workflowIdentifier);
    });

    it('subscribers.preferences.update, global and per workflow', async () => {
      const global = await sdk('subscribers.preferences.update global', () =>
        novu.subscribers.preferences.update({ channels: { email: false } }, subscriberId),
      );
      expect(global.result.global.channels.email).toBe(false);

      const perWorkflow = await sdk('subscribers.preferences.update workflow', () =>
        novu.subscribers.preferences.update({ channels: { inApp: false }, workflowId }, subscriberId),
      );
      const workflow = perWorkflow.result.workflows.find((w) => w.workflow.identifier === workflowIdentifier);
      expect(workflow?.channels.inApp).toBe(false);
    });

    describe('topics', () => {
      const key = uniqueName('topic');

      it('topics.create (201)', async () => {
        const res = await sdk('topics.create', () => novu.topics.create({ key, name: 'Compat topic' }));
        expect(res.result).toMatchObject({ key, name: 'Compat topic' });
      });

      it('topics.get, list and update', async () => {
        expect((await sdk('topics.get', () => novu.topics.get(key))).result.key).toBe(key);
        const listed = await sdk('topics.list', () => novu.topics.list({ key }));
        expect(listed.result.data.map((x) => x.key)).toContain(key);
        const updated = await sdk('topics.update', () => novu.topics.update({ name: 'Renamed topic' }, key));
        expect(updated.result.name).toBe('Renamed topic');
      });

      it('topics.subscriptions.create, list and delete', async () => {
        const created = await sdk('topics.subscriptions.create', () =>
          novu.topics.subscriptions.create({ subscriberIds: [subscriberId, uniqueName('ghost')] }, key),
        );
        expect(created.result.data.map((s) => s.subscriber?.subscriberId)).toContain(subscriberId);
        expect(created.result.errors?.length).toBe(1);

        const listed = await sdk('topics.subscriptions.list', () => novu.topics.subscriptions.list({ topicKey: key }));
        expect(listed.result.data.map((s) => s.subscriber?.subscriberId)).toEqual([subscriberId]);

        await sdk('topics.subscriptions.delete', () => novu.topics.subscriptions.delete({ subscriberIds: [subscriberId] }, key));
        const after = await sdk('topics.subscriptions.list after delete', () => novu.topics.subscriptions.list({ topicKey: key }));
        expect(after.result.data).toEqual([]);
      });

      it('topics.delete', async () => {
        await sdk('topics.delete', () => novu.topics.delete(key));
        await sdkFails('topics.get deleted', 404, () => novu.topics.get(key));
      });
    });

    describe('trigger, messages, notifications', () => {
      let transactionId: string;

      it('trigger (201, processed)', async () => {
        // The preferences test above opted this subscriber out of in-app for the workflow.
        await sdk('subscribers.preferences.update opt back in', () =>
          novu.subscribers.preferences.update({ channels: { inApp: true }, workflowId }, subscriberId),
        );
        const res = await sdk('trigger', () => novu.trigger({ workflowId: workflowIdentifier, to: subscriberId, payload: { name: 'Ada' } }));
        expect(res.result).toMatchObject({ acknowledged: true, status: 'processed' });
        transactionId = res.result.transactionId!;
        expect(typeof transactionId).toBe('string');
      });

      it('messages.retrieve finds the in-app message, and notifications.retrieve its notification', async () => {
        let messages: Awaited<ReturnType<Novu['messages']['retrieve']>>['result']['data'] = [];
        // Delivery is asynchronous: poll until the worker has written the message.
        for (let attempt = 0; attempt < 100 && messages.length === 0; attempt++) {
          const res = await sdk('messages.retrieve', () => novu.messages.retrieve({ transactionId: [transactionId], channel: 'in_app' }));
          messages = res.result.data;
          if (messages.length === 0) await new Promise((r) => setTimeout(r, 100));
        }
        expect(messages).toHaveLength(1);
        const notification = await sdk('notifications.retrieve', () => novu.notifications.retrieve(messages[0].notificationId));
        expect(notification.result.transactionId).toBe(transactionId);
      });

      it('messages.deleteByTransactionId (204)', async () => {
        await sdk('messages.deleteByTransactionId', () => novu.messages.deleteByTransactionId(transactionId));
        const res = await sdk('messages.retrieve after delete', () => novu.messages.retrieve({ transactionId: [transactionId] }));
        expect(res.result.data).toEqual([]);
      });

      it('cancel', async () => {
        const res = await sdk('cancel', () => novu.cancel(transactionId));
        expect(typeof res.result).toBe('boolean');
      });

      it('trigger overrides reach the provider: email channel keys, providers.<id> and _passthrough', async () => {
        // The preferences test above turned email off for this subscriber.
        await sdk('subscribers.preferences.update email on', () => novu.subscribers.preferences.update({ channels: { email: true } }, subscriberId));
        const res = await sdk('trigger with overrides', () =>
          novu.trigger({
            workflowId: workflowIdentifier,
            to: subscriberId,
            payload: { name: 'Grace' },
            overrides: {
              email: { replyTo: 'support@example.com', cc: ['boss@example.com'], senderName: 'Acme Support' },
              providers: { sendgrid: { ipPoolName: 'marketing', _passthrough: { body: { categories: ['compat'] } } } },
            },
          }),
        );
        expect(res.result).toMatchObject({ acknowledged: true, status: 'processed' });
        const transactionId = res.result.transactionId!;
        const [sent, ...more] = await waitFor(async () => {
          const mine = sendgrid.accepted.filter((request) => request.json().custom_args?.transactionId === transactionId);
          return mine.length > 0 && mine;
        });
        expect(more).toEqual([]);
        expect(sendgrid.refusals.filter((refusal) => refusal.request.path === '/v3/mail/send')).toEqual([]);
        expect(sent.json()).toMatchObject({
          personalizations: [{ to: [{ email }], cc: [{ email: 'boss@example.com' }] }],
          from: { email: 'noreply@example.com', name: 'Acme Support' },
          reply_to: { email: 'support@example.com' },
          subject: 'Hi',
          ip_pool_name: 'marketing',
          categories: ['compat'],
          custom_args: { transactionId },
        });
        const messages = await waitFor(async () => {
          const list = await sdk('messages.retrieve email', () => novu.messages.retrieve({ transactionId: [transactionId], channel: 'email' }));
          return list.result.data.length === 1 && list.result.data[0].status === 'sent' && list.result.data;
        });
        expect(messages[0]).toMatchObject({ channel: 'email', providerId: 'sendgrid', email });
      });
    });

    describe('last', () => {
      it('subscribers.delete', async () => {
        const res = await sdk('subscribers.delete', () => novu.subscribers.delete(subscriberId));
        expect(res.result).toMatchObject({ acknowledged: true, status: 'deleted' });
        await sdkFails('subscribers.retrieve deleted', 404, () => novu.subscribers.retrieve(subscriberId));
      });
    });
  });
});
