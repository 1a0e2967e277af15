import { randomUUID } from 'node:crypto';
import { MailgunFake } from '../fakes/email/mailgun.fake';
import { PostmarkFake } from '../fakes/email/postmark.fake';
import { OneSignalFake } from '../fakes/push/one-signal.fake';
import { ApiClient, describeEachMode, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/**
 * A topic trigger to N subscribers through each batching vendor (Postmark, Mailgun, OneSignal), the
 * content alike for everyone: N messages, each with its own status, its own id in what the vendor
 * was sent (Postmark's Metadata, Mailgun's v:id through recipient variables, OneSignal's device
 * list), its own vendor id where the vendor gives one per message, in fewer vendor requests than
 * messages (the fan-out runs a batch of subscribers' first steps together).
 */
const SIZE = 6;
const SETTLED = ['completed', 'failed', 'canceled', 'skipped', 'merged'];

describeEachMode('batching vendors through a topic fan-out (%s)', (store) => {
  let t: TestApp;
  let api: ApiClient;
  const postmark = new PostmarkFake();
  const mailgun = new MailgunFake();
  const oneSignal = new OneSignalFake();
  const subscribers = Array.from({ length: SIZE }, (_, i) => ({
    subscriberId: uniqueName(`reader-${i}`),
    email: `reader-${i}@example.com`,
    player: randomUUID(),
  }));
  const topicKey = uniqueName('readers').toLowerCase();

  beforeAll(async () => {
    await Promise.all([postmark.start(), mailgun.start(), oneSignal.start()]);
    t = await startTestApp({ store, redis: store === 'postgres' });
    api = t.api((await t.createEnvironment(uniqueName('Env'))).apiKey);
    const integration = async (body: object) => expect((await api.post('/v1/integrations').send({ active: true, check: false, ...body })).status).toBe(201);
    const sender = { from: 'news@example.com', senderName: 'News' };
    await integration({
      providerId: 'postmark',
      channel: 'email',
      identifier: 'pm',
      credentials: { apiKey: postmark.serverToken, ...sender, baseUrl: postmark.origin },
    });
    await integration({
      providerId: 'mailgun',
      channel: 'email',
      identifier: 'mg',
      credentials: { apiKey: mailgun.apiKey, domain: mailgun.domain, ...sender, baseUrl: mailgun.origin },
    });
    await integration({
      providerId: 'one-signal',
      channel: 'push',
      identifier: 'os',
      credentials: { applicationId: oneSignal.appId, apiKey: oneSignal.restKey, baseUrl: oneSignal.origin },
    });
    for (const s of subscribers) {
      expect((await api.post('/v2/subscribers').send({ subscriberId: s.subscriberId, email: s.email })).status).toBe(201);
      expect(
        (await api.put(`/v1/subscribers/${s.subscriberId}/credentials`).send({ providerId: 'one-signal', credentials: { deviceTokens: [s.player] } })).status,
      ).toBe(200);
    }
    expect((await api.post('/v2/topics').send({ key: topicKey, name: 'Readers' })).status).toBe(201);
    expect((await api.post(`/v2/topics/${topicKey}/subscriptions`).send({ subscriberIds: subscribers.map((s) => s.subscriberId) })).status).toBeLessThan(300);
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([postmark.close(), mailgun.close(), oneSignal.close()]);
  });

  /** Triggers a one-step workflow to the topic; once every job settled, answers each subscriber's message and its vendor id (the job's sent detail). */
  async function sendToTopic(template: object, overrides: object = {}) {
    const identifier = uniqueName('wf').toLowerCase();
    expect((await api.post('/v1/workflows').send({ name: identifier, identifier, active: true, steps: [{ template }] })).status).toBe(201);
    const triggered = await api.post('/v1/events/trigger').send({ name: identifier, to: [{ type: 'Topic', topicKey }], overrides });
    expect(triggered.status).toBe(201);
    const transactionId = triggered.body.data.transactionId as string;
    const notifications = await waitFor(async () => {
      const found = (await api.get('/v1/notifications').query({ transactionId, limit: '100' })).body.data as any[];
      return found.length === SIZE && found.every((n) => n.jobs.every((job: any) => SETTLED.includes(job.status))) && found;
    }, 60_000);
    const messages = (await api.get('/v1/messages').query({ transactionId, limit: '100' })).body.data as any[];
    const vendorIds = notifications.map((n) => JSON.parse(n.jobs[0].executionDetails.find((d: any) => d.detail === 'Message sent').raw).id as string);
    return { messages, vendorIds };
  }

  const email = { type: 'email', subject: 'News', content: [{ type: 'text', content: '<p>The same for everyone</p>' }] };
  const sortedIds = (messages: any[]) => messages.map((m) => m._id).sort();

  it('Postmark: one /email/batch result per message, each its own MessageID', async () => {
    postmark.reset();
    const { messages, vendorIds } = await sendToTopic(email, { email: { integrationIdentifier: 'pm' } });
    expect(messages.map((m) => m.status)).toEqual(subscribers.map(() => 'sent'));
    expect(postmark.refusals).toEqual([]);
    const sent = postmark.accepted.flatMap((request) => [request.json()].flat());
    expect(sent.map((m) => m.Metadata.id).sort()).toEqual(sortedIds(messages));
    expect(new Set(vendorIds).size).toBe(SIZE);
    expect(postmark.accepted.length).toBeLessThan(SIZE);
  });

  it("Mailgun: recipient variables give each recipient's message its own v:id; the messages keep Mailgun's id", async () => {
    mailgun.reset();
    const { messages, vendorIds } = await sendToTopic(email, { email: { integrationIdentifier: 'mg' } });
    expect(messages.map((m) => m.status)).toEqual(subscribers.map(() => 'sent'));
    expect(mailgun.refusals).toEqual([]);
    expect(mailgun.deliveries.map((d) => d.variables.id).sort()).toEqual(sortedIds(messages));
    expect(mailgun.deliveries.map((d) => d.to).sort()).toEqual(subscribers.map((s) => s.email).sort());
    expect(vendorIds.every((id) => /^<.+@mg\.example\.com>$/.test(id))).toBe(true);
    expect(mailgun.accepted.length).toBeLessThan(SIZE);
  });

  it("OneSignal: one notification names several devices; each message is sent under the notification's id", async () => {
    oneSignal.reset();
    const { messages, vendorIds } = await sendToTopic({ type: 'push', title: 'News', content: 'The same for everyone' });
    expect(messages.map((m) => m.status)).toEqual(subscribers.map(() => 'sent'));
    expect(oneSignal.refusals).toEqual([]);
    const devices = oneSignal.accepted.flatMap((request) => request.json().include_player_ids);
    expect(devices.sort()).toEqual(subscribers.map((s) => s.player).sort());
    expect(vendorIds.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(oneSignal.accepted.length).toBeLessThan(SIZE);
  });
});
