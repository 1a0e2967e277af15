import { SendgridFake } from '../fakes/email/sendgrid.fake';
import { TwilioFake } from '../fakes/sms/twilio.fake';
import { ApiClient, describeEachMode, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/**
 * A vendor's step first in a topic fan-out runs inside the fan-out for each batch of subscribers
 * (NotificationBatches): every subscriber's message is sent once, with its own status and vendor id,
 * and what fails or must wait goes to the steps queue per message. Both modes: PGlite with the store's
 * queue, PostgreSQL with Redis.
 */
const SETTLED = ['completed', 'failed', 'canceled', 'skipped', 'merged'];

describeEachMode('vendor steps of a topic fan-out (%s)', (store) => {
  let t: TestApp;
  const sendgrid = new SendgridFake();
  const twilio = new TwilioFake();
  beforeAll(async () => {
    await Promise.all([sendgrid.start(), twilio.start()]);
    t = await startTestApp({ store, redis: store === 'postgres' });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([sendgrid.close(), twilio.close()]);
  });

  /** A fresh environment with a topic of `size` subscribers (email and phone each) and its API. */
  async function topicOf(size: number) {
    const { apiKey } = await t.createEnvironment(uniqueName('Env'));
    const api: ApiClient = t.api(apiKey);
    const subscribers = Array.from({ length: size }, (_, i) => ({
      subscriberId: uniqueName(`member-${i}`),
      email: `member-${i}@example.com`,
      phone: `+1555000${3000 + i}`,
    }));
    for (const subscriber of subscribers) expect((await api.post('/v2/subscribers').send(subscriber)).status).toBe(201);
    const topicKey = uniqueName('topic').toLowerCase();
    expect((await api.post('/v2/topics').send({ key: topicKey, name: 'Members' })).status).toBe(201);
    const added = await api.post(`/v2/topics/${topicKey}/subscriptions`).send({ subscriberIds: subscribers.map((s) => s.subscriberId) });
    expect(added.status).toBeLessThan(300);
    const workflow = async (steps: unknown[]) => {
      const identifier = uniqueName('wf').toLowerCase();
      expect((await api.post('/v1/workflows').send({ name: identifier, identifier, active: true, steps })).status).toBe(201);
      return identifier;
    };
    const trigger = async (name: string) => {
      const res = await api.post('/v1/events/trigger').send({ name, to: [{ type: 'Topic', topicKey }] });
      expect(res.status).toBe(201);
      return res.body.data.transactionId as string;
    };
    const settled = (transactionId: string) =>
      waitFor(async () => {
        const res = await api.get('/v1/notifications').query({ transactionId, limit: '100' });
        const found = res.body.data as any[];
        return found.length === size && found.every((n) => n.jobs.every((job: any) => SETTLED.includes(job.status))) && found;
      }, 60_000);
    const messages = async (transactionId: string) => (await api.get('/v1/messages').query({ transactionId, limit: '100' })).body.data as any[];
    return { api, subscribers, workflow, trigger, settled, messages };
  }

  it("sends each member's email once, with its own status and vendor id; a vendor failure is retried for that message alone", async () => {
    const topic = await topicOf(5);
    await topic.api.post('/v1/integrations').send({
      providerId: 'sendgrid',
      channel: 'email',
      identifier: uniqueName('sendgrid'),
      credentials: { apiKey: sendgrid.apiKey, from: 'news@example.com', senderName: 'News', baseUrl: sendgrid.origin },
      active: true,
    });
    // Rendered for each member: one request per message, each answered with its own X-Message-Id.
    const name = await topic.workflow([
      { template: { type: 'email', subject: 'News', content: [{ type: 'text', content: '<p>Hi {{subscriber.subscriberId}}</p>' }] } },
    ]);
    sendgrid.reset();
    sendgrid.failNext('unavailable');
    const transactionId = await topic.trigger(name);
    const notifications = await topic.settled(transactionId);

    expect(notifications.map((n) => n.jobs.map((job: any) => job.status))).toEqual(topic.subscribers.map(() => ['completed']));
    const retried = notifications.filter((n) => n.jobs[0].executionDetails.some((d: any) => d.detail === 'Provider error, retry scheduled'));
    expect(retried).toHaveLength(1);
    const sent = await topic.messages(transactionId);
    expect(sent.map((message) => message.status)).toEqual(topic.subscribers.map(() => 'sent'));
    expect(sent.map((message) => message.email).sort()).toEqual(topic.subscribers.map((s) => s.email).sort());
    // each message went out once, under its own id, and keeps the id SendGrid gave its request
    expect(sendgrid.refusals).toEqual([]);
    const bodies = sendgrid.accepted.map((request) => request.json());
    expect(bodies.map((body) => (body.personalizations[0].custom_args ?? body.custom_args).id).sort()).toEqual(sent.map((m) => m._id).sort());
    // the vendor's id for each message, as its job's sent detail records it
    const vendorIds = notifications.map((n) => JSON.parse(n.jobs[0].executionDetails.find((d: any) => d.detail === 'Message sent').raw).id);
    expect(vendorIds.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(vendorIds).size).toBe(sent.length);
  });

  it('an SMS integration over its rate limit: the batch sends what the limit allows and the rest wait in the queue, none failed', async () => {
    const topic = await topicOf(4);
    await topic.api.post('/v1/integrations').send({
      providerId: 'twilio',
      channel: 'sms',
      identifier: uniqueName('twilio'),
      credentials: { accountSid: twilio.accountSid, token: twilio.token, from: '+15550000000', baseUrl: twilio.origin },
      rateLimit: { perSecond: 1 },
      active: true,
    });
    const name = await topic.workflow([{ template: { type: 'sms', content: 'Hi {{subscriber.subscriberId}}' } }]);
    twilio.reset();
    const transactionId = await topic.trigger(name);
    const notifications = await topic.settled(transactionId);

    expect(notifications.map((n) => n.jobs[0].status)).toEqual(topic.subscribers.map(() => 'completed'));
    const sent = await topic.messages(transactionId);
    expect(sent.map((message) => message.status)).toEqual(topic.subscribers.map(() => 'sent'));
    expect(twilio.accepted).toHaveLength(topic.subscribers.length);
    // a wait for the pace spends no attempt: no retry was scheduled for any of them
    const details = notifications.flatMap((n) => n.jobs[0].executionDetails.map((d: any) => d.detail));
    expect(details).not.toContain('Provider error, retry scheduled');
  });
});
