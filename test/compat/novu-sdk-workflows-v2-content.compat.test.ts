/**
 * What a workflow written through `/v2/workflows` delivers, driven by Novu's SDKs (`@novu/api`, the
 * Inbox's `@novu/js`) in both modes: each channel step delivers what its v1 twin does (in-app through
 * the messages API, email through a SendGrid fake, SMS through a Twilio fake, chat through a webhook,
 * push through an Expo fake); block email bodies, sanitisation on and off, in-app data and actions in
 * the Inbox, and the step preview of every step type.
 */
import { Novu } from '@novu/api';
import { Novu as NovuInbox } from '@novu/js';
import { AddressInfo } from 'node:net';
import { ChatWebhookFake } from '../fakes/chat/chat-webhook.fake';
import { SendgridFake } from '../fakes/email/sendgrid.fake';
import { ExpoFake } from '../fakes/push/expo.fake';
import { TwilioFake } from '../fakes/sms/twilio.fake';
import { FakeRequest } from '../fakes/vendor-fake';
import { NOVU_API_VERSION, sdk } from '../support/novu-api';
import { describeEachMode, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const EXPO_TOKEN = 'ExponentPushToken[v2-content-device-01]';

describeEachMode(`@novu/api ${NOVU_API_VERSION}: what v2 workflows deliver (%s)`, (store) => {
  let t: TestApp;
  let novu: Novu;
  let baseUrl: string;
  const sendgrid = new SendgridFake();
  const twilio = new TwilioFake();
  const chat = new ChatWebhookFake();
  const expo = new ExpoFake();
  const subscriberId = uniqueName('v2-content');

  beforeAll(async () => {
    await Promise.all([sendgrid.start(), twilio.start(), chat.start(), expo.start()]);
    t = await startTestApp({ store, redis: store === 'postgres' });
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}`;
    novu = new Novu({ secretKey: t.apiKey, serverURL: baseUrl, retryConfig: { strategy: 'none' } });
    const integrations = [
      {
        providerId: 'sendgrid',
        channel: 'email',
        credentials: { apiKey: sendgrid.apiKey, from: 'noreply@example.com', senderName: 'Acme', baseUrl: sendgrid.origin },
      },
      {
        providerId: 'twilio',
        channel: 'sms',
        credentials: { accountSid: twilio.accountSid, token: twilio.token, from: '+15550001111', baseUrl: twilio.origin },
      },
      { providerId: 'chat-webhook', channel: 'chat', credentials: {} },
      { providerId: 'expo', channel: 'push', credentials: { apiKey: expo.accessToken, baseUrl: expo.origin } },
    ] as const;
    for (const integration of integrations) {
      await sdk(`integrations.create ${integration.providerId}`, () =>
        novu.integrations.create({ ...integration, name: integration.providerId, identifier: uniqueName(integration.providerId), active: true }),
      );
    }
    await sdk('subscribers.create', () => novu.subscribers.create({ subscriberId, firstName: 'Ada', email: 'ada@example.com', phone: '+15551234567' }));
    await sdk('credentials chat', () =>
      novu.subscribers.credentials.update({ providerId: 'chat-webhook', credentials: { webhookUrl: chat.webhookUrl } }, subscriberId),
    );
    await sdk('credentials push', () => novu.subscribers.credentials.update({ providerId: 'expo', credentials: { deviceTokens: [EXPO_TOKEN] } }, subscriberId));
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([sendgrid.close(), twilio.close(), chat.close(), expo.close()]);
  });

  async function http(method: string, path: string, body?: unknown) {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: `ApiKey ${t.apiKey}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** The sends a fake accepted whose body (as `read` reads it) holds `marker`, once there are `count`. */
  function sent<T>(fake: { accepted: FakeRequest[] }, read: (request: FakeRequest) => T | T[], marker: string, count: number): Promise<T[]> {
    return waitFor(async () => {
      const found = fake.accepted.flatMap(read).filter((message) => JSON.stringify(message).includes(marker));
      return found.length >= count && found;
    });
  }

  // One email per personalization: emails alike but for their recipients may share one Mail Send request.
  const email = (request: FakeRequest) => {
    const body = request.json();
    const message = {
      subject: body.subject as string,
      html: (body.content as { type: string; value: string }[]).find((part) => part.type === 'text/html')?.value ?? '',
      from: body.from as { email: string; name?: string },
      replyTo: body.reply_to?.email as string | undefined,
    };
    return ((body.personalizations as unknown[] | undefined) ?? [{}]).map(() => message);
  };

  async function inAppMessages(marker: string, count: number) {
    return waitFor(async () => {
      const res = await http('GET', `/v1/messages?subscriberId=${subscriberId}&channel=in_app&limit=100`);
      if (res.status !== 200) return false;
      const found = res.body.data.filter((message: { content: string }) => String(message.content).includes(marker));
      return found.length >= count && found;
    });
  }

  it('a v2 workflow of each channel step and its v1 twin, triggered with the same payload, deliver the same content', async () => {
    const marker = uniqueName('twin');
    const payload = { orderId: marker, items: 3 };
    const v2Id = uniqueName('v2-twin').toLowerCase();
    await sdk('workflows.create v2 twin', () =>
      novu.workflows.create({
        name: 'v2 twin',
        workflowId: v2Id,
        active: true,
        steps: [
          {
            name: 'In-app',
            type: 'in_app',
            controlValues: {
              subject: 'Order {{ payload.orderId }}',
              body: 'Order {{ payload.orderId }} for {{ subscriber.firstName }}: {{ payload.items }} items',
              redirect: { url: 'https://example.com/orders/{{ payload.orderId }}' },
            },
          },
          {
            name: 'Email',
            type: 'email',
            controlValues: {
              subject: 'Order {{ payload.orderId }}',
              body: '<p>Hello {{ subscriber.firstName }}, order {{ payload.orderId }} shipped.</p>',
              editorType: 'html',
              layoutId: null,
            },
          },
          { name: 'SMS', type: 'sms', controlValues: { body: 'Order {{ payload.orderId }}: {{ payload.items }} items' } },
          { name: 'Chat', type: 'chat', controlValues: { body: 'Order {{ payload.orderId }} for {{ subscriber.firstName }}' } },
          { name: 'Push', type: 'push', controlValues: { subject: 'Order {{ payload.orderId }}', body: '{{ payload.items }} items on their way' } },
        ],
      }),
    );
    const v1Id = uniqueName('v1-twin').toLowerCase();
    const v1 = await http('POST', '/v1/workflows', {
      name: 'v1 twin',
      identifier: v1Id,
      active: true,
      steps: [
        {
          template: {
            type: 'in_app',
            subject: 'Order {{payload.orderId}}',
            content: 'Order {{payload.orderId}} for {{subscriber.firstName}}: {{payload.items}} items',
            cta: { type: 'redirect', data: { url: 'https://example.com/orders/{{payload.orderId}}' } },
          },
        },
        {
          template: {
            type: 'email',
            subject: 'Order {{payload.orderId}}',
            contentType: 'customHtml',
            content: '<p>Hello {{subscriber.firstName}}, order {{payload.orderId}} shipped.</p>',
          },
        },
        { template: { type: 'sms', content: 'Order {{payload.orderId}}: {{payload.items}} items' } },
        { template: { type: 'chat', content: 'Order {{payload.orderId}} for {{subscriber.firstName}}' } },
        { template: { type: 'push', title: 'Order {{payload.orderId}}', content: '{{payload.items}} items on their way' } },
      ],
    });
    expect(v1.status).toBe(201);
    for (const workflowId of [v2Id, v1Id]) await sdk(`trigger ${workflowId}`, () => novu.trigger({ workflowId, to: subscriberId, payload }));

    const [inAppA, inAppB] = await inAppMessages(marker, 2);
    expect(inAppA.content).toBe(`Order ${marker} for Ada: 3 items`);
    for (const message of [inAppA, inAppB]) {
      expect({ content: message.content, subject: message.subject, url: message.cta.data.url }).toEqual({
        content: `Order ${marker} for Ada: 3 items`,
        subject: `Order ${marker}`,
        url: `https://example.com/orders/${marker}`,
      });
    }
    const emails = await sent(sendgrid, email, marker, 2);
    expect(emails[0]).toEqual({
      subject: `Order ${marker}`,
      html: `<p>Hello Ada, order ${marker} shipped.</p>`,
      from: { email: 'noreply@example.com', name: 'Acme' },
    });
    expect(emails[1]).toEqual(emails[0]);
    const texts = await sent(twilio, (request) => request.form().get('Body'), marker, 2);
    expect(texts).toEqual([`Order ${marker}: 3 items`, `Order ${marker}: 3 items`]);
    const chats = await sent(chat, (request) => request.json().content, marker, 2);
    expect(chats).toEqual([`Order ${marker} for Ada`, `Order ${marker} for Ada`]);
    const pushes = await sent(
      expo,
      (request) => [request.json()].flat().map((m: { to: string; title: string; body: string }) => ({ to: m.to, title: m.title, body: m.body })),
      marker,
      2,
    );
    expect(pushes).toEqual([
      { to: EXPO_TOKEN, title: `Order ${marker}`, body: '3 items on their way' },
      { to: EXPO_TOKEN, title: `Order ${marker}`, body: '3 items on their way' },
    ]);
  });

  it('email: a block editor body rendered by Maily, from/replyTo/preheader, sanitised unless disableOutputSanitization', async () => {
    const marker = uniqueName('mail');
    const document = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Order {{ payload.orderId }}' }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'Hi ' },
            { type: 'variable', attrs: { id: 'subscriber.firstName' } },
            { type: 'text', text: '!' },
          ],
        },
        { type: 'button', attrs: { text: 'Track', url: 'https://example.com/t/{{ payload.orderId }}', alignment: 'left', variant: 'filled' } },
      ],
    };
    const unsafe = '<p onclick="steal()">Careful {{ payload.orderId }}</p><script>steal()</script>';
    const workflowId = uniqueName('v2-mail').toLowerCase();
    await sdk('workflows.create email', () =>
      novu.workflows.create({
        name: 'v2 mail',
        workflowId,
        active: true,
        steps: [
          {
            name: 'Block',
            type: 'email',
            controlValues: {
              subject: 'Block {{ payload.orderId }}',
              body: JSON.stringify(document),
              editorType: 'block',
              from: { email: 'orders@shop.example.com', name: 'Shop {{ payload.orderId }}' },
              replyTo: 'help@shop.example.com',
              preheader: 'Peek {{ payload.orderId }}',
            },
          },
          { name: 'Sanitised', type: 'email', controlValues: { subject: 'Clean {{ payload.orderId }}', body: unsafe, editorType: 'html', layoutId: null } },
          {
            name: 'Raw',
            type: 'email',
            controlValues: { subject: 'Raw {{ payload.orderId }}', body: unsafe, editorType: 'html', layoutId: null, disableOutputSanitization: true },
          },
        ],
      }),
    );
    await sdk('trigger email', () => novu.trigger({ workflowId, to: subscriberId, payload: { orderId: marker } }));
    const emails = await sent(sendgrid, email, marker, 3);
    const bySubject = (prefix: string) => emails.find((candidate) => candidate.subject === `${prefix} ${marker}`)!;

    const block = bySubject('Block');
    expect(block.from).toEqual({ email: 'orders@shop.example.com', name: `Shop ${marker}` });
    expect(block.replyTo).toBe('help@shop.example.com');
    expect(block.html).toContain(`<title>Block ${marker}</title>`);
    expect(block.html).toContain(`Peek ${marker}`);
    expect(block.html).toMatch(new RegExp(`<h2[^>]*>Order ${marker}</h2>`));
    expect(block.html).toContain('Hi Ada!');
    expect(block.html).toContain(`href="https://example.com/t/${marker}"`);

    expect(bySubject('Clean').html).toBe(`<p>Careful ${marker}</p>`);
    expect(bySubject('Raw').html).toBe(`<p onclick="steal()">Careful ${marker}</p><script>steal()</script>`);
    // The integration's sender where the step names none.
    expect(bySubject('Clean').from).toEqual({ email: 'noreply@example.com', name: 'Acme' });
  });

  it('in-app: data, actions with their links and targets, redirect and avatar in the Inbox (API and @novu/js); sanitised unless disabled', async () => {
    const marker = uniqueName('inbox');
    const workflowId = uniqueName('v2-inbox').toLowerCase();
    await sdk('workflows.create in-app', () =>
      novu.workflows.create({
        name: 'v2 inbox',
        workflowId,
        active: true,
        steps: [
          {
            name: 'Bell',
            type: 'in_app',
            controlValues: {
              subject: '<b>New</b> {{ payload.orderId }}',
              body: '<img src="https://example.com/i.png" onerror="steal()">Order {{ payload.orderId }}<script>steal()</script>',
              avatar: 'https://example.com/avatars/{{ payload.orderId }}.png',
              data: { orderId: '{{ payload.orderId }}', count: 2, nested: { who: '{{ subscriber.firstName }}' } },
              primaryAction: { label: 'Open {{ payload.orderId }}', redirect: { url: 'https://example.com/o/{{ payload.orderId }}', target: '_blank' } },
              secondaryAction: { label: 'Later' },
              redirect: { url: 'https://example.com/list', target: '_self' },
            },
          },
          {
            name: 'Raw',
            type: 'in_app',
            controlValues: { body: '<i onclick="x()">Raw {{ payload.orderId }}</i>', disableOutputSanitization: true },
          },
        ],
      }),
    );
    await sdk('trigger in-app', () => novu.trigger({ workflowId, to: subscriberId, payload: { orderId: marker, secret: 'not data' } }));
    await inAppMessages(marker, 2);

    const { body: me } = await http('GET', '/v1/environments/me');
    const inbox = new NovuInbox({
      applicationIdentifier: me.data.identifier,
      subscriber: subscriberId,
      backendUrl: baseUrl,
      socketUrl: baseUrl,
      useCache: false,
    });
    try {
      const listed = (await inbox.notifications.list({ limit: 50 })).data!.notifications.filter((n) => n.body.includes(marker));
      const bell = listed.find((n) => n.body.startsWith('<img'))!;
      expect(bell).toMatchObject({
        subject: `<b>New</b> ${marker}`,
        body: `<img src="https://example.com/i.png" />Order ${marker}`,
        avatar: `https://example.com/avatars/${marker}.png`,
        data: { orderId: marker, count: 2, nested: { who: 'Ada' } },
        primaryAction: { label: `Open ${marker}`, isCompleted: false, redirect: { url: `https://example.com/o/${marker}`, target: '_blank' } },
        secondaryAction: { label: 'Later', isCompleted: false },
        redirect: { url: 'https://example.com/list', target: '_self' },
      });
      expect(bell.data).not.toHaveProperty('secret');
      expect(listed.find((n) => n.body.startsWith('<i'))).toMatchObject({ body: `<i onclick="x()">Raw ${marker}</i>`, data: {} });
    } finally {
      await inbox.socket.disconnect();
    }
  });

  it('steps after a digest read its events as steps.<stepId>.events and eventCount (and v1’s step.events)', async () => {
    const marker = uniqueName('digest');
    const workflowId = uniqueName('v2-digest').toLowerCase();
    await sdk('workflows.create digest', () =>
      novu.workflows.create({
        name: 'v2 digest',
        workflowId,
        active: true,
        steps: [
          { name: 'Digest', type: 'digest', controlValues: { amount: 2, unit: 'seconds' } },
          {
            name: 'Bell',
            type: 'in_app',
            controlValues: {
              body: '{{ payload.marker }}: {{ steps.digest.eventCount }} events, {{ steps.digest.events | map: "payload" | map: "n" | sort | join: ";" }}; v1 {{ step.total_count }}',
            },
          },
        ],
      }),
    );
    for (const n of [1, 2, 3]) await sdk(`trigger digest ${n}`, () => novu.trigger({ workflowId, to: subscriberId, payload: { marker, n } }));
    const [message] = await inAppMessages(marker, 1);
    // The events' order is the order the triggers were merged in, so sorted here.
    expect(message.content).toBe(`${marker}: 3 events, 1;2;3; v1 3`);
  });

  it('previews every step type through the SDK: sample values for what is not given, errors as the error shape, nothing sent', async () => {
    const workflowId = uniqueName('v2-preview').toLowerCase();
    await sdk('workflows.create preview', () =>
      novu.workflows.create({
        name: 'v2 preview',
        workflowId,
        active: true,
        payloadSchema: { type: 'object', properties: { orderId: { type: 'string', default: 'A-1' }, items: { type: 'number', default: 2 } } },
        steps: [
          {
            name: 'Hook',
            type: 'http_request',
            controlValues: {
              method: 'POST',
              url: 'https://api.example.com/o/{{ payload.orderId }}',
              headers: [
                { key: 'Authorization', value: 'Bearer s3cr3t-{{ payload.orderId }}' },
                { key: 'X-Order', value: '{{ payload.orderId }}' },
              ],
              body: '{"id": "{{ payload.orderId }}"}',
            },
          },
          { name: 'Digest', type: 'digest', controlValues: { amount: 5, unit: 'minutes' } },
          {
            name: 'In-app',
            type: 'in_app',
            controlValues: {
              subject: 'Hi {{ subscriber.firstName }}',
              body: '{{ steps.digest.eventCount }} orders, first {{ steps.digest.events[0].payload.orderId }}',
              data: { id: '{{ payload.orderId }}' },
              primaryAction: { label: 'Go', redirect: { url: 'https://x.example/{{ payload.orderId }}', target: '_blank' } },
            },
          },
          {
            name: 'Email',
            type: 'email',
            controlValues: { subject: 'Order {{ payload.orderId }}', body: '<p>{{ payload.items }} items</p>', editorType: 'html', layoutId: null },
          },
          { name: 'SMS', type: 'sms', controlValues: { body: 'SMS {{ payload.orderId }}' } },
          { name: 'Chat', type: 'chat', controlValues: { body: 'Chat {{ subscriber.firstName }}' } },
          { name: 'Push', type: 'push', controlValues: { subject: 'Push {{ payload.orderId }}', body: 'Body {{ payload.items }}' } },
          { name: 'Wait', type: 'delay', controlValues: { type: 'regular', amount: 1, unit: 'hours' } },
          { name: 'Limit', type: 'throttle', controlValues: { amount: 1, unit: 'hours', threshold: 3 } },
        ],
      }),
    );
    const before = sendgrid.accepted.length + twilio.accepted.length + chat.accepted.length + expo.accepted.length;
    const preview = async (stepId: string, body: Parameters<Novu['workflows']['steps']['generatePreview']>[0]['generatePreviewRequestDto'] = {}) =>
      (await sdk(`generatePreview ${stepId}`, () => novu.workflows.steps.generatePreview({ workflowId, stepId, generatePreviewRequestDto: body }))).result;

    const inApp = await preview('in-app', { previewPayload: { subscriber: { firstName: 'Grace' }, payload: { orderId: 'B-7' } } });
    expect(inApp.result).toEqual({
      type: 'in_app',
      preview: {
        subject: 'Hi Grace',
        body: '2 orders, first B-7',
        data: { id: 'B-7' },
        primaryAction: { label: 'Go', redirect: { url: 'https://x.example/B-7', target: '_blank' } },
      },
    });
    expect(inApp.previewPayloadExample).toMatchObject({ payload: { orderId: 'B-7', items: 2 }, subscriber: { firstName: 'Grace' } });
    expect((inApp.previewPayloadExample.steps as Record<string, { eventCount: number }>).digest.eventCount).toBe(2);

    expect((await preview('email')).result).toEqual({ type: 'email', preview: { subject: 'Order A-1', body: '<p>2 items</p>' } });
    expect((await preview('sms')).result).toEqual({ type: 'sms', preview: { body: 'SMS A-1' } });
    expect((await preview('chat')).result).toEqual({ type: 'chat', preview: { body: 'Chat Jane' } });
    expect((await preview('push')).result).toEqual({ type: 'push', preview: { subject: 'Push A-1', body: 'Body 2' } });
    expect((await preview('digest')).result).toEqual({ type: 'digest', preview: { amount: 5, unit: 'minutes' } });
    expect((await preview('wait')).result).toEqual({ type: 'delay', preview: { type: 'regular', amount: 1, unit: 'hours' } });
    expect((await preview('limit')).result).toMatchObject({ type: 'throttle', preview: { threshold: 3 } });
    const hook = await preview('hook', { previewPayload: { payload: { orderId: 'C-3' } } });
    expect(hook.result).toEqual({
      type: 'http_request',
      preview: { method: 'POST', url: 'https://api.example.com/o/C-3', headers: { Authorization: 'Bearer ****', 'X-Order': 'C-3' }, body: '{"id": "C-3"}' },
    });
    expect(JSON.stringify(hook)).not.toContain('s3cr3t');

    // Controls given in the request, and one that cannot render: the error shape, not a failure.
    expect((await preview('sms', { controlValues: { body: 'Other {{ payload.orderId | upcase }}' } })).result).toEqual({
      type: 'sms',
      preview: { body: 'Other A-1' },
    });
    const broken = await preview('sms', { controlValues: { body: 'Broken {{ payload.orderId ' } });
    expect(broken.result).toMatchObject({
      type: 'sms',
      error: { title: expect.any(String), message: expect.stringContaining('parse'), hint: expect.any(String) },
    });
    expect(broken.result).not.toHaveProperty('preview');

    expect(sendgrid.accepted.length + twilio.accepted.length + chat.accepted.length + expo.accepted.length).toBe(before);
    expect((await http('POST', `/v2/workflows/${workflowId}/step/nope/preview`, {})).status).toBe(404);
  });
});
