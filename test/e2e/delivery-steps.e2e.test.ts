import { DateTime } from 'luxon';
import { JOB_REPOSITORY, JobRepository, MESSAGE_REPOSITORY, MessageRepository } from '@app/delivery';
import { verifyWebhookSignature } from '../../libs/providers/src/webhooks/webhook-signature';
import { LoopbackReceiver, ReceivedRequest } from '../../libs/providers/src/testing/loopback-receiver';
import request from 'supertest';
import { SendgridFake } from '../fakes/email/sendgrid.fake';
import { SendGridSigner } from '../fakes/vendor-event-signers';
import { ApiClient, describeEachStore, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const SETTLED = ['completed', 'failed', 'canceled', 'merged', 'skipped'];
const WEEK_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/**
 * The step behaviours of the delivery engine end to end in the embedded mode: push and chat
 * targets, delays, digests, filters, stop-on-fail, quiet hours, tenants, actors, rendering, and what
 * an email step makes of its template and the trigger's overrides. Each test that depends on the set
 * of integrations runs in an environment of its own.
 */
describeEachStore('delivery steps, embedded mode (%s)', (store) => {
  let t: TestApp;
  let receiver: LoopbackReceiver;
  const sendgrid = new SendgridFake();
  beforeAll(async () => {
    await sendgrid.start();
    t = await startTestApp({ store });
    receiver = await LoopbackReceiver.start();
    // Paths starting with /fail answer 400 (a permanent provider error); everything else 200.
    receiver.respond((req, res) => {
      if (req.path.startsWith('/fail')) res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"rejected"}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(`{"id":"remote-${receiver.requests.length}"}`);
    });
  });
  afterAll(async () => {
    await receiver.close();
    await sendgrid.close();
    await t.close();
  });

  /** A fresh environment (own integrations, workflows, subscribers) and helpers bound to its key. */
  async function environment() {
    const { apiKey } = await t.createEnvironment(uniqueName('Env'));
    const api: ApiClient = t.api(apiKey);

    async function createWorkflow(steps: unknown[], extra: Record<string, unknown> = {}) {
      const identifier = uniqueName('wf').toLowerCase();
      const res = await api.post('/v1/workflows').send({ name: identifier, identifier, active: true, steps, ...extra });
      expect(res.status).toBe(201);
      return { id: res.body.data._id as string, identifier, steps: res.body.data.steps as any[] };
    }
    async function trigger(body: Record<string, unknown>) {
      const res = await api.post('/v1/events/trigger').send(body);
      expect(res.status).toBe(201);
      return res.body.data as { transactionId: string; status: string };
    }
    async function messagesOf(query: Record<string, string>) {
      const res = await api.get('/v1/messages').query({ limit: '100', ...query });
      if (res.status === 404 && query.subscriberId) return [] as any[];
      expect(res.status).toBe(200);
      return res.body.data as any[];
    }
    async function notificationsOf(transactionId: string) {
      const res = await api.get('/v1/notifications').query({ transactionId, limit: '100' });
      expect(res.status).toBe(200);
      return res.body.data as any[];
    }
    /** The notifications of a transaction once every job reached a final status (or the given ones). */
    async function settled(transactionId: string, done: string[] = SETTLED) {
      return waitFor(async () => {
        const n = await notificationsOf(transactionId);
        return n.length > 0 && n.every((x) => x.jobs.length > 0 && x.jobs.every((j: any) => done.includes(j.status))) && n;
      });
    }
    async function integration(body: Record<string, unknown>) {
      const res = await api.post('/v1/integrations').send({ active: true, ...body });
      expect(res.status).toBe(201);
      return res.body.data as { _id: string; identifier: string };
    }
    async function subscriber(body: Record<string, unknown> = {}) {
      const subscriberId = uniqueName('sub');
      const res = await api.post('/v2/subscribers').send({ subscriberId, ...body });
      expect(res.status).toBe(201);
      return subscriberId;
    }
    async function credentials(subscriberId: string, body: Record<string, unknown>) {
      const res = await api.put(`/v1/subscribers/${subscriberId}/credentials`).send(body);
      expect(res.status).toBe(200);
    }
    return { api, createWorkflow, trigger, messagesOf, notificationsOf, settled, integration, subscriber, credentials };
  }

  const inApp = (content: string, extra: Record<string, unknown> = {}) => ({ template: { type: 'in_app', content }, ...extra });
  const chat = (content: string, extra: Record<string, unknown> = {}) => ({ template: { type: 'chat', content }, ...extra });
  const detailsOf = (job: any) => job.executionDetails.map((d: any) => d.detail) as string[];
  const received = (prefix: string): ReceivedRequest[] => receiver.requests.filter((r) => r.path.startsWith(prefix));

  describe('push through push-webhook', () => {
    it('posts one signed request per device token to the integration webhookUrl', async () => {
      const e = await environment();
      const path = `/push-${uniqueName('p')}`;
      const secretKey = 'push-secret';
      await e.integration({ providerId: 'push-webhook', channel: 'push', credentials: { webhookUrl: receiver.url(path), secretKey } });
      const wf = await e.createWorkflow([{ template: { type: 'push', title: 'Hi {{subscriber.firstName}}', content: 'Order {{payload.order}}' } }]);
      const subscriberId = await e.subscriber({ firstName: 'Ada' });
      await e.credentials(subscriberId, { providerId: 'push-webhook', credentials: { deviceTokens: ['token-a', 'token-b'] } });

      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { order: 7 } });
      const [notification] = await e.settled(transactionId);
      expect(notification.jobs[0].status).toBe('completed');
      const deliveries = received(path);
      expect(deliveries).toHaveLength(2);
      for (const delivery of deliveries) {
        expect(verifyWebhookSignature(delivery.rawBody, secretKey, delivery.headers['x-novu-signature'] as string)).toBe(true);
        expect(JSON.parse(delivery.rawBody)).toMatchObject({ title: 'Hi Ada', content: 'Order 7', payload: { order: 7 } });
      }
      expect(deliveries.map((d) => JSON.parse(d.rawBody).target).sort()).toEqual([['token-a'], ['token-b']]);
      // one message per token, each its own idempotency key
      expect(new Set(deliveries.map((d) => d.headers['idempotency-key'])).size).toBe(2);
      const messages = await e.messagesOf({ transactionId, channel: 'push' });
      expect(messages.map((m) => m.status)).toEqual(['sent', 'sent']);
      expect(messages.map((m) => m.deviceTokens).sort()).toEqual([['token-a'], ['token-b']]);
    });

    it('cancels the job with a Warning when the subscriber has no push tokens', async () => {
      const e = await environment();
      await e.integration({ providerId: 'push-webhook', channel: 'push', credentials: { webhookUrl: receiver.url('/push-none'), secretKey: 's' } });
      const wf = await e.createWorkflow([{ template: { type: 'push', title: 't', content: 'c' } }]);
      const subscriberId = await e.subscriber();
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId });
      const [notification] = await e.settled(transactionId);
      const job = notification.jobs[0];
      expect(job.status).toBe('canceled');
      const warning = job.executionDetails.find((d: any) => d.detail === 'Subscriber does not have a configured channel');
      expect(warning).toMatchObject({ status: 'Warning', source: 'Credentials' });
      expect(await e.messagesOf({ transactionId })).toHaveLength(0);

      // a push entry whose token list is empty
      const emptied = await e.subscriber();
      await e.credentials(emptied, { providerId: 'push-webhook', credentials: { deviceTokens: [] } });
      const second = await e.trigger({ name: wf.identifier, to: emptied });
      const [emptiedNotification] = await e.settled(second.transactionId);
      expect(emptiedNotification.jobs[0].status).toBe('canceled');
      const tokensWarning = emptiedNotification.jobs[0].executionDetails.find((d: any) => d.status === 'Warning');
      expect(tokensWarning.detail).toMatch(/^Subscriber (does not have a configured channel|credentials is missing the tokens)/);
      expect(received('/push-none')).toHaveLength(0);
    });
  });

  describe('chat without a target or an integration', () => {
    it('cancels a chat step for a subscriber without chat credentials', async () => {
      const e = await environment();
      await e.integration({ providerId: 'chat-webhook', channel: 'chat', credentials: {} });
      const wf = await e.createWorkflow([chat('hello')]);
      const subscriberId = await e.subscriber();
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId });
      const [notification] = await e.settled(transactionId);
      expect(notification.jobs[0].status).toBe('canceled');
      expect(detailsOf(notification.jobs[0])).toContain('Subscriber does not have a configured channel');
    });

    it('fails a chat step when the environment has no active chat integration', async () => {
      const e = await environment();
      const wf = await e.createWorkflow([chat('hello')]);
      const subscriberId = await e.subscriber();
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId });
      const [notification] = await e.settled(transactionId);
      expect(notification.jobs[0].status).toBe('failed');
      expect(detailsOf(notification.jobs[0])).toContain('Subscriber does not have an active integration');
    });
  });

  describe('scheduled delay', () => {
    it('waits until the date at the payload path', async () => {
      const e = await environment();
      const wf = await e.createWorkflow([{ template: { type: 'delay' }, metadata: { type: 'scheduled', delayPath: 'sendAt' } }, inApp('scheduled')]);
      const subscriberId = await e.subscriber();
      const sendAt = new Date(Date.now() + 1_500).toISOString();
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { sendAt } });
      const [notification] = await e.settled(transactionId);
      expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed']);
      expect(detailsOf(notification.jobs[0])).toEqual(expect.arrayContaining(['Step delayed', 'Delay is finished']));
      const [message] = await e.messagesOf({ transactionId });
      expect(message.content).toBe('scheduled');
      expect(new Date(message.createdAt).getTime()).toBeGreaterThanOrEqual(new Date(sendAt).getTime());
    });

    it('fails the delay for a date in the past and cancels the following steps', async () => {
      const e = await environment();
      const wf = await e.createWorkflow([{ template: { type: 'delay' }, metadata: { type: 'scheduled', delayPath: 'sendAt' } }, inApp('never')]);
      const subscriberId = await e.subscriber();
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { sendAt: new Date(Date.now() - 60_000).toISOString() } });
      const [notification] = await e.settled(transactionId);
      const [delay, next] = notification.jobs;
      expect(delay.status).toBe('failed');
      const failure = delay.executionDetails.find((d: any) => d.status === 'Failed');
      expect(failure.detail).toMatch(/Delay date at path must be a future date/);
      expect(next.status).toBe('canceled');
      expect(detailsOf(next)).toContain('Step was canceled because a previous step failed');
      expect(await e.messagesOf({ transactionId })).toHaveLength(0);
    });
  });

  describe('dynamic delay (metadata type dynamic, dynamicKey)', () => {
    const dynamicDelay = (dynamicKey: string) => ({ template: { type: 'delay' }, metadata: { type: 'dynamic', dynamicKey } });
    const delayedFor = (job: any) => JSON.parse(job.executionDetails.find((d: any) => d.detail === 'Step delayed').raw).delayMs as number;

    it('waits until the ISO date-time at the payload path', async () => {
      const e = await environment();
      const wf = await e.createWorkflow([inApp('before'), dynamicDelay('payload.sendAt'), inApp('after')]);
      const subscriberId = await e.subscriber();
      const sendAt = new Date(Date.now() + 1_500).toISOString();
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { sendAt } });
      const [notification] = await e.settled(transactionId);
      expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'completed']);
      const delay = notification.jobs[1];
      expect(delay.step.metadata).toEqual({ type: 'dynamic', dynamicKey: 'payload.sendAt' });
      expect(detailsOf(delay)).toEqual(expect.arrayContaining(['Step delayed', 'Delay is finished']));
      const messages = await e.messagesOf({ transactionId });
      const after = messages.find((m) => m.content === 'after');
      expect(messages.map((m) => m.content).sort()).toEqual(['after', 'before']);
      expect(new Date(after.createdAt).getTime()).toBeGreaterThanOrEqual(new Date(sendAt).getTime());
    });

    it('waits the {amount, unit} at the payload path, in any of the units', async () => {
      const e = await environment();
      const wf = await e.createWorkflow([dynamicDelay('payload.wait'), inApp('after the wait')]);
      const subscriberId = await e.subscriber();
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { wait: { amount: 1, unit: 'seconds' } } });
      const [notification] = await e.settled(transactionId);
      expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed']);
      expect(delayedFor(notification.jobs[0])).toBe(1_000);
      expect(await e.messagesOf({ transactionId })).toHaveLength(1);

      // longer units: the delay is set (then the trigger canceled)
      for (const [unit, ms] of [
        ['minutes', 60_000],
        ['hours', 3_600_000],
      ] as const) {
        const long = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { wait: { amount: 1, unit } } });
        const waiting = await waitFor(async () => {
          const [n] = await e.notificationsOf(long.transactionId);
          return n?.jobs[0]?.status === 'delayed' && n;
        });
        expect(waiting.jobs.map((j: any) => j.status)).toEqual(['delayed', 'pending']);
        expect(delayedFor(waiting.jobs[0])).toBe(ms);
        await e.api.delete(`/v1/events/trigger/${long.transactionId}`).expect(200);
      }
    });

    it('fails the delay job, saying why, and cancels the steps after it, for a missing, malformed or past value', async () => {
      const e = await environment();
      const wf = await e.createWorkflow([dynamicDelay('payload.at'), inApp('never')]);
      const subscriberId = await e.subscriber();
      const cases: [unknown, RegExp][] = [
        [undefined, /Dynamic delay key 'payload.at' not found in payload/],
        ['invalid-format', /is not a valid format/],
        [{ amount: 5, unit: 'invalid-unit' }, /Invalid time unit 'invalid-unit'/],
        [new Date(Date.now() - 10_000).toISOString(), /must be a future date/],
      ];
      for (const [at, reason] of cases) {
        const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId, payload: at === undefined ? { other: 1 } : { at } });
        const [notification] = await e.settled(transactionId);
        const [delay, next] = notification.jobs;
        expect({ at, status: delay.status }).toEqual({ at, status: 'failed' });
        const failure = delay.executionDetails.find((d: any) => d.status === 'Failed');
        expect(failure.detail).toMatch(reason);
        expect(next.status).toBe('canceled');
        expect(detailsOf(next)).toContain('Step was canceled because a previous step failed');
        expect(await e.messagesOf({ transactionId })).toHaveLength(0);
      }
    });
  });

  describe('digest', () => {
    it('keeps one digest per digestKey value', async () => {
      const e = await environment();
      const wf = await e.createWorkflow([
        { template: { type: 'digest' }, metadata: { type: 'regular', amount: 3, unit: 'seconds', digestKey: 'post.id' } },
        inApp('{{step.total_count}} on {{payload.post.id}}'),
      ]);
      const subscriberId = await e.subscriber();
      const posts = ['a', 'b', 'a', 'b', 'a'];
      await Promise.all(posts.map((id) => e.trigger({ name: wf.identifier, to: subscriberId, payload: { post: { id } } })));
      const messages = await waitFor(async () => {
        const m = await e.messagesOf({ subscriberId });
        return m.length >= 2 && m;
      }, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await e.messagesOf({ subscriberId })).toHaveLength(2);
      expect(messages.map((m) => m.content).sort()).toEqual(['2 on b', '3 on a']);
    });

    it('lets the first backoff event through and digests a second one inside the window', async () => {
      const e = await environment();
      const wf = await e.createWorkflow([
        { template: { type: 'digest' }, metadata: { type: 'backoff', amount: 3, unit: 'seconds', backoffAmount: 5, backoffUnit: 'minutes' } },
        inApp('{{step.total_count}} events'),
      ]);
      const subscriberId = await e.subscriber();
      const first = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { n: 1 } });
      const [firstNotification] = await e.settled(first.transactionId);
      expect(firstNotification.jobs.map((j: any) => j.status)).toEqual(['skipped', 'completed']);
      expect(detailsOf(firstNotification.jobs[0])).toContain('Digest was skipped, first backoff event');
      // As Novu: the event is not digested, so neither job carries digest events.
      expect(firstNotification.jobs.map((j: any) => j.digest?.events)).toEqual([undefined, undefined]);
      expect((await e.messagesOf({ transactionId: first.transactionId }))[0].content).toBe('0 events');

      const second = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { n: 2 } });
      const third = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { n: 3 } });
      const [secondNotification] = await e.settled(second.transactionId);
      const [thirdNotification] = await e.settled(third.transactionId);
      const statuses = [secondNotification.jobs[0].status, thirdNotification.jobs[0].status].sort();
      expect(statuses).toEqual(['completed', 'merged']);
      // As Novu: the merged event's later jobs are `merged` too, not canceled.
      const merged = [secondNotification, thirdNotification].find((n) => n.jobs[0].status === 'merged');
      expect(merged.jobs.map((j: any) => j.status)).toEqual(['merged', 'merged']);
      const messages = await waitFor(async () => {
        const m = await e.messagesOf({ subscriberId });
        return m.length === 2 && m;
      });
      expect(messages.map((m) => m.content).sort()).toEqual(['0 events', '2 events']);
    });

    it('fires a timed digest on its cron schedule', async () => {
      const e = await environment();
      const wf = await e.createWorkflow([
        { template: { type: 'digest' }, metadata: { type: 'timed', timed: { cronExpression: '*/2 * * * * *' } } },
        inApp('{{step.total_count}} timed'),
      ]);
      const subscriberId = await e.subscriber();
      const triggers = await Promise.all([1, 2].map((n) => e.trigger({ name: wf.identifier, to: subscriberId, payload: { n } })));
      const notifications = (await Promise.all(triggers.map((x) => e.settled(x.transactionId)))).flat();
      const masters = notifications.map((n) => n.jobs[0]).filter((j: any) => j.status === 'completed');
      expect(masters.length).toBeGreaterThanOrEqual(1);
      for (const master of masters) {
        const digested = master.executionDetails.find((d: any) => d.detail === 'Step digested');
        const fireAt = new Date(JSON.parse(digested.raw).fireAt);
        // the cron fires on even seconds, exactly
        expect(fireAt.getUTCMilliseconds()).toBe(0);
        expect(fireAt.getUTCSeconds() % 2).toBe(0);
      }
      const messages = await waitFor(async () => {
        const m = await e.messagesOf({ subscriberId });
        return m.length === masters.length && m;
      });
      // both events are delivered, in one digest or (across a boundary) two
      expect(messages.map((m) => Number(m.content.split(' ')[0])).reduce((a, b) => a + b, 0)).toBe(2);
    });
  });

  describe('step filters, active and shouldStopOnFail', () => {
    it('evaluates OR groups, negation, subscriber and tenant fields and IN/BETWEEN/LIKE', async () => {
      const e = await environment();
      const part = (on: string, field: string, operator: string, value: string | number | boolean) => ({ on, field, operator, value });
      const group = (value: 'AND' | 'OR', children: unknown[], isNegated = false) => ({ value, children, isNegated, type: 'BOOLEAN' });
      const wf = await e.createWorkflow([
        // two filters: the first fails, the second (BETWEEN) passes → runs
        inApp('or-filters', {
          filters: [group('AND', [part('payload', 'plan', 'EQUAL', 'gold')]), group('AND', [part('payload', 'count', 'BETWEEN', '1,10')])],
        }),
        // an OR group inside one filter
        inApp('or-children', { filters: [group('OR', [part('payload', 'plan', 'EQUAL', 'gold'), part('payload', 'plan', 'IN', 'silver,bronze')])] }),
        // negated: plan is silver, so the negation fails → skipped
        inApp('negated', { filters: [group('AND', [part('payload', 'plan', 'EQUAL', 'silver')], true)] }),
        // negated and true
        inApp('negated-pass', { filters: [group('AND', [part('payload', 'plan', 'EQUAL', 'gold')], true)] }),
        inApp('subscriber-like', { filters: [group('AND', [part('subscriber', 'email', 'LIKE', '%@example.com')])] }),
        inApp('subscriber-like-miss', { filters: [group('AND', [part('subscriber', 'email', 'LIKE', '%@other.org')])] }),
        inApp('tenant-in', { filters: [group('AND', [part('tenant', 'data.region', 'IN', 'eu,us')])] }),
        inApp('tenant-miss', { filters: [group('AND', [part('tenant', 'identifier', 'IN', 'x,y')])] }),
        inApp('between-miss', { filters: [group('AND', [part('payload', 'count', 'BETWEEN', '6,10')])] }),
        // the expected value is a template, rendered with the trigger's variables before comparing
        inApp('templated-value', { filters: [group('AND', [part('payload', 'count', 'SMALLER_EQUAL', '{{payload.limit}}')])] }),
        inApp('templated-miss', { filters: [group('AND', [part('subscriber', 'email', 'EQUAL', 'x-{{subscriber.email}}')])] }),
        inApp('inactive', { active: false }),
        inApp('last'),
      ]);
      const tenant = uniqueName('tenant');
      await e.api
        .post('/v1/tenants')
        .send({ identifier: tenant, name: 'Acme', data: { region: 'eu' } })
        .expect(201);
      const subscriberId = await e.subscriber({ email: 'ada@example.com' });
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { plan: 'silver', count: 5, limit: 7 }, tenant });
      const [notification] = await e.settled(transactionId);
      // the inactive step has no job at all
      expect(notification.jobs).toHaveLength(12);
      const delivered = (await e.messagesOf({ transactionId })).map((m) => m.content).sort();
      expect(delivered).toEqual(['last', 'negated-pass', 'or-children', 'or-filters', 'subscriber-like', 'templated-value', 'tenant-in'].sort());
      const canceled = notification.jobs.filter((j: any) => j.status === 'canceled');
      expect(canceled).toHaveLength(5);
      const templated = notification.jobs.find(
        (j: any) =>
          detailsOf(j).includes('Step was skipped based on steps conditions') && j.executionDetails.some((d: any) => d.raw?.includes('x-ada@example.com')),
      );
      expect(templated).toBeDefined();
      for (const job of canceled) expect(detailsOf(job)).toContain('Step was skipped based on steps conditions');
    });

    it('stops the workflow after a failed step with shouldStopOnFail, and goes on without it', async () => {
      const e = await environment();
      const chatIntegration = await e.integration({ providerId: 'chat-webhook', channel: 'chat', credentials: {} });
      const subscriberId = await e.subscriber();
      await e.credentials(subscriberId, {
        providerId: 'chat-webhook',
        integrationIdentifier: chatIntegration.identifier,
        credentials: { webhookUrl: receiver.url('/fail-chat') },
      });

      const stopping = await e.createWorkflow([chat('boom', { shouldStopOnFail: true }), inApp('after stop')]);
      const stopped = await e.trigger({ name: stopping.identifier, to: subscriberId });
      const [stoppedNotification] = await e.settled(stopped.transactionId);
      expect(stoppedNotification.jobs.map((j: any) => j.status)).toEqual(['failed', 'canceled']);
      expect(detailsOf(stoppedNotification.jobs[1])).toContain('Step was canceled because a previous step failed');
      const stoppedMessages = await e.messagesOf({ transactionId: stopped.transactionId });
      expect(stoppedMessages.map((m) => [m.channel, m.status])).toEqual([['chat', 'error']]);

      const going = await e.createWorkflow([chat('boom'), inApp('after failure')]);
      const went = await e.trigger({ name: going.identifier, to: subscriberId });
      const [wentNotification] = await e.settled(went.transactionId);
      expect(wentNotification.jobs.map((j: any) => j.status)).toEqual(['failed', 'completed']);
      const wentMessages = await e.messagesOf({ transactionId: went.transactionId, channel: 'in_app' });
      expect(wentMessages.map((m) => m.content)).toEqual(['after failure']);
    });
  });

  describe('previous-step filters (on: previousStep)', () => {
    const wait = { template: { type: 'delay' }, metadata: { type: 'regular', amount: 3, unit: 'seconds' } };
    const onPrevious = (step: string, stepType: string) => [{ value: 'AND', children: [{ on: 'previousStep', step, stepType }] }];

    it("goes by whether the step's in-app message was read or seen when the later step runs", async () => {
      const e = await environment();
      const first = uniqueName('uuid');
      const wf = await e.createWorkflow([
        inApp('first', { uuid: first }),
        wait,
        inApp('thanks for reading', { filters: onPrevious(first, 'read') }),
        inApp('you have not seen it', { filters: onPrevious(first, 'unseen') }),
      ]);
      const subscriberId = await e.subscriber();
      const read = await e.trigger({ name: wf.identifier, to: subscriberId });
      const unread = await e.trigger({ name: wf.identifier, to: subscriberId });
      // the subscriber reads the first message of one of them while its delay runs
      const [firstMessage] = await waitFor(async () => {
        const messages = await e.messagesOf({ transactionId: read.transactionId });
        return messages.length === 1 && messages;
      });
      await e.api.post('/v1/messages/mark-as').send({ messageId: firstMessage._id, markAs: 'read', subscriberId }).expect(201);

      const [readNotification] = await e.settled(read.transactionId);
      expect(readNotification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'completed', 'canceled']);
      const skipped = readNotification.jobs[3].executionDetails.find((d: any) => d.detail === 'Step was skipped based on steps conditions');
      expect(JSON.parse(skipped.raw)).toEqual([
        { filter: 'previousStep', field: 'unseen', expected: 'true', actual: 'false', operator: 'EQUAL', passed: false, step: first },
      ]);
      expect((await e.messagesOf({ transactionId: read.transactionId })).map((m) => m.content).sort()).toEqual(['first', 'thanks for reading']);

      const [unreadNotification] = await e.settled(unread.transactionId);
      expect(unreadNotification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'canceled', 'completed']);
      expect((await e.messagesOf({ transactionId: unread.transactionId })).map((m) => m.content).sort()).toEqual(['first', 'you have not seen it']);
    });
  });

  describe('quiet hours', () => {
    it('defers chat outside the schedule, delivers in-app, and lets a critical workflow through', async () => {
      const e = await environment();
      const chatIntegration = await e.integration({ providerId: 'chat-webhook', channel: 'chat', credentials: {} });
      const timezone = 'America/New_York';
      const subscriberId = await e.subscriber({ timezone });
      const path = `/quiet-${uniqueName('q')}`;
      await e.credentials(subscriberId, {
        providerId: 'chat-webhook',
        integrationIdentifier: chatIntegration.identifier,
        credentials: { webhookUrl: receiver.url(path) },
      });
      // The only window is three days from today, on the subscriber's wall clock.
      const windowDay = DateTime.now().setZone(timezone).plus({ days: 3 });
      const day = WEEK_DAYS[windowDay.weekday - 1];
      await e.api
        .patch(`/v2/subscribers/${subscriberId}/preferences`)
        .send({ schedule: { isEnabled: true, weeklySchedule: { [day]: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } } } })
        .expect(200);

      const wf = await e.createWorkflow([chat('quiet chat'), inApp('quiet in-app')]);
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId });
      const [notification] = await waitFor(async () => {
        const n = await e.notificationsOf(transactionId);
        return n[0]?.jobs[0]?.status === 'delayed' && n;
      });
      const chatJob = notification.jobs[0];
      const deferral = chatJob.executionDetails.find((d: any) => d.detail === "The step was deferred to the subscriber's schedule");
      expect(deferral).toBeDefined();
      const expectedRunAt = windowDay.set({ hour: 9, minute: 0, second: 0, millisecond: 0 }).toJSDate();
      expect(new Date(JSON.parse(deferral.raw).until).toISOString()).toBe(expectedRunAt.toISOString());
      const stored = await t.app.get<JobRepository>(JOB_REPOSITORY).findById(chatJob._id);
      expect(stored?.runAt?.toISOString()).toBe(expectedRunAt.toISOString());
      // the in-app step is not held by quiet hours
      await waitFor(async () => (await e.messagesOf({ transactionId, channel: 'in_app' })).length === 1);
      expect(received(path)).toHaveLength(0);

      // a step that must stop the workflow on failure keeps holding its successors while deferred
      const strict = await e.createWorkflow([chat('strict chat', { shouldStopOnFail: true }), inApp('strict in-app')]);
      const held = await e.trigger({ name: strict.identifier, to: subscriberId });
      await waitFor(async () => (await e.notificationsOf(held.transactionId))[0]?.jobs[0]?.status === 'delayed');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [heldNotification] = await e.notificationsOf(held.transactionId);
      expect(heldNotification.jobs.map((j: any) => j.status)).toEqual(['delayed', 'pending']);

      const critical = await e.createWorkflow([chat('critical chat')], { critical: true });
      const urgent = await e.trigger({ name: critical.identifier, to: subscriberId });
      const [urgentNotification] = await e.settled(urgent.transactionId);
      expect(urgentNotification.jobs[0].status).toBe('completed');
      expect(received(path).map((r) => JSON.parse(r.rawBody).content)).toEqual(['critical chat']);
    });
  });

  describe('tenants and actors', () => {
    it('updates an existing tenant from the trigger and picks the chat integration whose conditions match it', async () => {
      const e = await environment();
      const plain = await e.integration({ providerId: 'chat-webhook', channel: 'chat', identifier: uniqueName('plain'), credentials: { secretKey: 'plain' } });
      const pro = await e.integration({
        providerId: 'chat-webhook',
        channel: 'chat',
        identifier: uniqueName('pro'),
        credentials: { secretKey: 'pro' },
        conditions: [{ value: 'AND', children: [{ on: 'tenant', field: 'data.plan', operator: 'EQUAL', value: 'pro' }] }],
      });
      const subscriberId = await e.subscriber();
      const tag = uniqueName('t');
      await e.credentials(subscriberId, {
        providerId: 'chat-webhook',
        integrationIdentifier: plain.identifier,
        credentials: { webhookUrl: receiver.url(`/plain-${tag}`) },
      });
      await e.credentials(subscriberId, {
        providerId: 'chat-webhook',
        integrationIdentifier: pro.identifier,
        credentials: { webhookUrl: receiver.url(`/pro-${tag}`) },
      });
      const tenant = uniqueName('tenant');
      await e.api
        .post('/v1/tenants')
        .send({ identifier: tenant, name: 'Old name', data: { plan: 'free' } })
        .expect(201);
      const wf = await e.createWorkflow([chat('for {{tenant.name}}')]);

      const upgraded = await e.trigger({ name: wf.identifier, to: subscriberId, tenant: { identifier: tenant, name: 'New name', data: { plan: 'pro' } } });
      await e.settled(upgraded.transactionId);
      const stored = await e.api.get(`/v1/tenants/${tenant}`).expect(200);
      expect(stored.body.data).toMatchObject({ identifier: tenant, name: 'New name', data: { plan: 'pro' } });
      expect(received(`/pro-${tag}`).map((r) => JSON.parse(r.rawBody).content)).toEqual(['for New name']);
      expect(received(`/plain-${tag}`)).toHaveLength(0);

      const downgraded = await e.trigger({ name: wf.identifier, to: subscriberId, tenant: { identifier: tenant, data: { plan: 'free' } } });
      await e.settled(downgraded.transactionId);
      expect(received(`/plain-${tag}`)).toHaveLength(1);
      expect(received(`/pro-${tag}`)).toHaveLength(1);
    });

    it('renders actor variables and uses the actor avatar for in-app messages', async () => {
      const e = await environment();
      const wf = await e.createWorkflow([inApp('{{actor.firstName}} liked your post')]);
      const subscriberId = await e.subscriber();
      const actorId = uniqueName('actor');
      const avatar = 'https://example.com/avatar.png';
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId, actor: { subscriberId: actorId, firstName: 'Grace', avatar } });
      const [message] = await waitFor(async () => {
        const m = await e.messagesOf({ transactionId });
        return m.length === 1 && m;
      });
      expect(message.content).toBe('Grace liked your post');
      // Novu's message schema has no avatar field; the inbox reads it from the stored message.
      const [notification] = await e.settled(transactionId);
      const stored = await t.app.get<MessageRepository>(MESSAGE_REPOSITORY).findByJobId(notification.jobs[0]._id);
      expect(stored[0]?.avatar).toBe(avatar);
      // As Novu: the in-app message names its actor (_actorId, the actor subscriber's internal id) and shows a user actor's avatar.
      const actor = (await e.api.get(`/v2/subscribers/${actorId}`).expect(200)).body.data;
      expect(message).toMatchObject({ _actorId: actor._id, actor: { type: 'user', data: avatar } });
    });

    it("as Novu's test: a step actor of type user keeps data null in the store and answers the actor's avatar, with _actorId", async () => {
      const e = await environment();
      const avatar = 'https://gravatar.com/avatar/5246ec47a6a90ef2bcd29f0ef7d2faa6?s=400&d=robohash&r=x';
      const actorId = await e.subscriber({ avatar });
      const wf = await e.createWorkflow([
        inApp('Hello world!', { template: { type: 'in_app', content: 'Hello world!', actor: { type: 'user', data: null } } }),
      ]);
      const subscriberId = await e.subscriber();
      const { transactionId } = await e.trigger({ name: wf.identifier, to: [subscriberId], payload: {}, actor: actorId });
      const [notification] = await e.settled(transactionId);
      const [stored] = await t.app.get<MessageRepository>(MESSAGE_REPOSITORY).findByJobId(notification.jobs[0]._id);
      const actor = (await e.api.get(`/v2/subscribers/${actorId}`).expect(200)).body.data;
      // Novu's message document: the option as written, and the actor's id.
      expect(stored).toMatchObject({ actor: { type: 'user', data: null }, actorSubscriberId: actor._id });
      // Novu's GET /v1/messages fills a user actor's data with the actor's avatar.
      const [message] = await e.messagesOf({ transactionId });
      expect(message).toMatchObject({ _actorId: actor._id, actor: { type: 'user', data: avatar } });
    });

    it("takes the in-app avatar from the step's actor option: a system icon, a custom URL, or none", async () => {
      const e = await environment();
      const url = 'https://example.com/custom.png';
      const wf = await e.createWorkflow([
        inApp('icon', { template: { type: 'in_app', content: 'icon', actor: { type: 'system_icon', data: 'warning' } } }),
        inApp('custom', { template: { type: 'in_app', content: 'custom', actor: { type: 'system_custom', data: url } } }),
        inApp('none', { template: { type: 'in_app', content: 'none', actor: { type: 'none', data: null } } }),
      ]);
      expect(wf.steps[0].template.actor).toEqual({ type: 'system_icon', data: 'warning' });
      const subscriberId = await e.subscriber();
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId, actor: uniqueName('actor') });
      await e.settled(transactionId);
      const messages = await e.messagesOf({ transactionId });
      const byContent = Object.fromEntries(messages.map((m) => [m.content, m]));
      expect(byContent.icon.actor).toEqual({ type: 'system_icon', data: 'warning' });
      expect(byContent.custom.actor).toEqual({ type: 'system_custom', data: url });
      expect(byContent.none).not.toHaveProperty('actor');
      expect(byContent.none._actorId).toEqual(expect.any(String));
      await e.api
        .post('/v1/workflows')
        .send({ name: uniqueName('bad-actor'), steps: [{ template: { type: 'in_app', content: 'x', actor: { type: 'robot' } } }] })
        .expect(422);
    });
  });

  describe('template rendering', () => {
    it("fills payload fields the trigger leaves out with the step variables' defaultValue", async () => {
      const e = await environment();
      const wf = await e.createWorkflow([
        {
          template: {
            type: 'in_app',
            content: 'Hello {{myUser.lastName}}, welcome to {{organizationName}}',
            variables: [
              { name: 'myUser.lastName', required: false, type: 'String', defaultValue: 'John Doe' },
              { name: 'organizationName', required: false, type: 'String', defaultValue: 'Novu Corp' },
            ],
          },
        },
      ]);
      expect(wf.steps[0].template.variables[0]).toEqual({ name: 'myUser.lastName', required: false, type: 'String', defaultValue: 'John Doe' });
      const subscriberId = await e.subscriber();
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { organizationName: 'Umbrella Corp' } });
      const [message] = await waitFor(async () => {
        const m = await e.messagesOf({ transactionId });
        return m.length === 1 && m;
      });
      expect(message.content).toBe('Hello John Doe, welcome to Umbrella Corp');
    });

    it('renders Novu-style root payload variables', async () => {
      const e = await environment();
      const wf = await e.createWorkflow([inApp('Hi {{name}}, {{payload.name}}, {{subscriber.firstName}}')]);
      const subscriberId = await e.subscriber({ firstName: 'Ada' });
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { name: 'Bob' } });
      const [message] = await waitFor(async () => {
        const m = await e.messagesOf({ transactionId });
        return m.length === 1 && m;
      });
      expect(message.content).toBe('Hi Bob, Bob, Ada');
    });

    it('fails the job when the template cannot be rendered', async () => {
      const e = await environment();
      const wf = await e.createWorkflow([inApp('Hi {{ payload.name | no_such_filter }}'), inApp('{% if %}broken'), inApp('still runs')]);
      const subscriberId = await e.subscriber();
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { name: 'x' } });
      const [notification] = await e.settled(transactionId);
      expect(notification.jobs.map((j: any) => j.status)).toEqual(['failed', 'failed', 'completed']);
      for (const job of notification.jobs.slice(0, 2)) {
        const failure = job.executionDetails.find((d: any) => d.status === 'Failed');
        expect(failure).toMatchObject({ detail: 'Message content could not be generated', source: 'Payload' });
      }
      expect((await e.messagesOf({ transactionId })).map((m) => m.content)).toEqual(['still runs']);
    });
  });

  describe('email', () => {
    const sendgridIntegration = (identifier: string, extra: Record<string, unknown> = {}) => ({
      providerId: 'sendgrid',
      channel: 'email',
      identifier,
      credentials: { apiKey: sendgrid.apiKey, from: 'no-reply@example.com', senderName: 'Integration Name', baseUrl: sendgrid.origin },
      ...extra,
    });
    const sentFor = (transactionId: string) =>
      waitFor(async () => sendgrid.accepted.find((request) => request.json().custom_args?.transactionId === transactionId)?.json());

    it('renders subject, preheader and blocks into HTML (values escaped) and a text part; attachments and sender come from payload and overrides', async () => {
      const e = await environment();
      await e.integration(sendgridIntegration(uniqueName('sg')));
      const wf = await e.createWorkflow([
        {
          template: {
            type: 'email',
            subject: 'Order {{payload.order}} for {{subscriber.firstName}}',
            preheader: 'Thanks, {{subscriber.firstName}}',
            senderName: 'Template Name',
            content: [
              { type: 'text', content: '<p>{{payload.note}} {{{payload.html}}}</p>{{#each payload.items}}<li>{{name}}: {{numberFormat price}}</li>{{/each}}' },
              { type: 'button', content: 'Track', url: 'https://example.com/track/{{payload.order}}' },
            ],
          },
        },
      ]);
      const subscriberId = await e.subscriber({ email: 'ada@example.com', firstName: 'Ada' });
      const { transactionId } = await e.trigger({
        name: wf.identifier,
        to: subscriberId,
        payload: {
          order: 'A-1',
          note: 'Tom & Jerry <3',
          html: '<b>bold</b>',
          items: [{ name: 'Widget', price: 1234.5 }],
          attachments: [{ name: 'invoice.txt', mime: 'text/plain', file: Buffer.from('invoice A-1').toString('base64') }],
        },
        overrides: { email: { replyTo: 'support@example.com', bcc: ['audit@example.com'], to: ['copy@example.com'] } },
      });
      const body = await sentFor(transactionId);
      const [sentNotification] = await e.settled(transactionId);
      expect(sentNotification.jobs[0]).toMatchObject({ status: 'completed', providerId: 'sendgrid' });
      expect(body).toMatchObject({
        personalizations: [{ to: [{ email: 'ada@example.com' }, { email: 'copy@example.com' }], bcc: [{ email: 'audit@example.com' }] }],
        // the step's sender name wins over the integration's; the integration's address is used
        from: { email: 'no-reply@example.com', name: 'Template Name' },
        reply_to: { email: 'support@example.com' },
        subject: 'Order A-1 for Ada',
        attachments: [{ filename: 'invoice.txt', type: 'text/plain', content: Buffer.from('invoice A-1').toString('base64'), disposition: 'attachment' }],
      });
      const [text, html] = body.content;
      expect(html.type).toBe('text/html');
      expect(html.value).toContain('<p>Tom &amp; Jerry &lt;3 <b>bold</b></p><li>Widget: 1,234.50</li>');
      expect(html.value).toContain('href="https://example.com/track/A-1"');
      expect(html.value).toContain('Thanks, Ada</div>');
      expect(text).toEqual({ type: 'text/plain', value: 'Tom & Jerry <3 bold\n\nWidget: 1,234.50\n\nTrack [https://example.com/track/A-1]' });
      const [message] = await e.messagesOf({ transactionId });
      expect(message).toMatchObject({ channel: 'email', status: 'sent', providerId: 'sendgrid', subject: 'Order A-1 for Ada', email: 'ada@example.com' });
      expect(message).not.toHaveProperty('errorText');
      // As Novu: a step written in blocks keeps them, rendered, as the message content; the attachments' files stay out of the message.
      expect(message.content).toEqual([
        { type: 'text', content: '<p>Tom &amp; Jerry &lt;3 <b>bold</b></p><li>Widget: 1,234.50</li>' },
        { type: 'button', content: 'Track', url: 'https://example.com/track/A-1' },
      ]);
      expect(message.payload).toMatchObject({ order: 'A-1' });
      expect(message.payload).not.toHaveProperty('attachments');
    });

    it("an override's sender wins over the step's and the integration's; a conditional integration serves the subscribers it matches", async () => {
      const e = await environment();
      await e.integration(sendgridIntegration(uniqueName('sg-main')));
      await e.integration(
        sendgridIntegration(uniqueName('sg-vip'), {
          credentials: { apiKey: sendgrid.apiKey, from: 'vip@example.com', senderName: 'VIP desk', baseUrl: sendgrid.origin },
          conditions: [{ value: 'AND', children: [{ on: 'subscriber', field: 'data.spend', operator: 'LARGER', value: '1000' }] }],
        }),
      );
      const wf = await e.createWorkflow([{ template: { type: 'email', subject: 'Hi', content: 'Hello', senderName: 'Template Name' } }]);
      const vip = await e.subscriber({ email: 'vip@example.com', data: { spend: 5000 } });
      const regular = await e.subscriber({ email: 'regular@example.com', data: { spend: 10 } });
      const toVip = await e.trigger({ name: wf.identifier, to: vip });
      const toRegular = await e.trigger({
        name: wf.identifier,
        to: regular,
        overrides: { email: { from: 'override@example.com', senderName: 'Override Name' } },
      });
      expect((await sentFor(toVip.transactionId)).from).toEqual({ email: 'vip@example.com', name: 'Template Name' });
      expect((await sentFor(toRegular.transactionId)).from).toEqual({ email: 'override@example.com', name: 'Override Name' });
      // Content written as a string stays a string: the HTML sent.
      const message = await waitFor(async () => (await e.messagesOf({ transactionId: toVip.transactionId })).find((m) => m.status === 'sent'));
      expect(typeof message.content).toBe('string');
      expect(message.content).toContain('Hello');
    });

    it("a previous-step filter counts an email read once its provider's event webhook reports it opened", async () => {
      const e = await environment();
      const signer = new SendGridSigner();
      const sg = (await e.integration(
        sendgridIntegration(uniqueName('sg'), { configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: signer.verificationKey } }),
      )) as { _id: string; _environmentId?: string };
      const email = uniqueName('uuid');
      const wf = await e.createWorkflow([
        { uuid: email, template: { type: 'email', subject: 'News', content: 'Read me' } },
        { template: { type: 'delay' }, metadata: { type: 'regular', amount: 3, unit: 'seconds' } },
        inApp('glad you opened it', { filters: [{ value: 'AND', children: [{ on: 'previousStep', step: email, stepType: 'read' }] }] }),
      ]);
      const subscriberId = await e.subscriber({ email: 'reader@example.com' });
      const opened = await e.trigger({ name: wf.identifier, to: subscriberId });
      const ignored = await e.trigger({ name: wf.identifier, to: subscriberId });

      // the provider reports the first email opened while the delay runs
      const sent = await waitFor(async () => {
        const [n] = await e.notificationsOf(opened.transactionId);
        return n?.jobs[0]?.executionDetails.find((d: any) => d.detail === 'Message sent');
      });
      const event = signer.sign([
        {
          event: 'open',
          email: 'reader@example.com',
          timestamp: Math.floor(Date.now() / 1000),
          sg_event_id: uniqueName('ev'),
          sg_message_id: `${JSON.parse(sent.raw).id}.filter1`,
        },
      ]);
      const res = await request(t.app.getHttpServer())
        .post(`/v2/inbound-webhooks/delivery-providers/${sg._environmentId}/${sg._id}`)
        .set(event.headers)
        .send(event.body);
      expect(res.body.data).toEqual({ recorded: 1, duplicates: 0, unknown: 0 });

      const [openedNotification] = await e.settled(opened.transactionId);
      expect(openedNotification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'completed']);
      const [ignoredNotification] = await e.settled(ignored.transactionId);
      expect(ignoredNotification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'canceled']);
      expect(await e.messagesOf({ transactionId: ignored.transactionId, channel: 'in_app' })).toHaveLength(0);
    });

    it("names the message's provider on the email job, sent or failed", async () => {
      const e = await environment();
      await e.integration(
        sendgridIntegration(uniqueName('sg-bad'), { credentials: { apiKey: 'SG.wrong', from: 'a@example.com', senderName: 'A', baseUrl: sendgrid.origin } }),
      );
      const wf = await e.createWorkflow([{ template: { type: 'email', subject: 'Hello', content: 'Body' } }]);
      const subscriberId = await e.subscriber({ email: 'x@example.com' });
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId });
      const [notification] = await e.settled(transactionId);
      const [message] = await e.messagesOf({ transactionId });
      expect(notification.jobs[0]).toMatchObject({ status: 'failed', providerId: 'sendgrid' });
      expect(message).toMatchObject({ status: 'error', providerId: 'sendgrid' });
    });

    it('shows the provider on a job waiting for its retry, as its message does', async () => {
      const e = await environment();
      await e.integration(sendgridIntegration(uniqueName('sg')));
      const wf = await e.createWorkflow([inApp('first'), { template: { type: 'email', subject: 'Hello', content: 'Body' } }]);
      const subscriberId = await e.subscriber({ email: 'retry@example.com' });
      // SendGrid answers 429 with a reset 2 s away: the job waits, queued, for its next attempt.
      sendgrid.failNext('rate_limited', 'rate_limited');
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId });
      const waiting = await waitFor(async () => {
        const [n] = await e.notificationsOf(transactionId);
        const read = n && (await e.api.get(`/v1/notifications/${n._id}`).expect(200)).body.data;
        const email = read?.jobs.find((j: any) => j.type === 'email');
        return email?.status === 'queued' && email.executionDetails.some((d: any) => d.status === 'Warning') && read;
      });
      const [message] = await e.messagesOf({ transactionId, channel: 'email' });
      expect(message.providerId).toBe('sendgrid');
      expect(waiting.jobs.map((j: any) => [j.type, j.providerId])).toEqual([
        ['in_app', 'novu'],
        ['email', 'sendgrid'],
      ]);
      const [settledNotification] = await e.settled(transactionId);
      expect(settledNotification.jobs.map((j: any) => [j.status, j.providerId])).toEqual([
        ['completed', 'novu'],
        ['completed', 'sendgrid'],
      ]);
    });

    it('writes a warning message with its rendered content and cancels the job for a subscriber without an email address', async () => {
      const e = await environment();
      await e.integration(sendgridIntegration(uniqueName('sg')));
      // As Novu's test: blocks, and variables whose defaultValue fills a dotted payload path the trigger leaves out.
      const wf = await e.createWorkflow([
        {
          template: {
            type: 'email',
            subject: 'Hello {{organizationName}}',
            content: [{ type: 'text', content: 'Hello {{myUser.lastName}}, Welcome to {{organizationName}}' }],
            variables: [
              { name: 'myUser.lastName', required: false, type: 'String', defaultValue: 'John Doe' },
              { name: 'organizationName', required: false, type: 'String', defaultValue: 'Novu Corp' },
            ],
          },
        },
      ]);
      const subscriberId = await e.subscriber();
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { organizationName: 'Umbrella Corp' } });
      const [notification] = await e.settled(transactionId);
      expect(notification.jobs[0]).toMatchObject({ status: 'canceled', providerId: 'sendgrid' });
      expect(detailsOf(notification.jobs[0])).toContain('Subscriber missing email address');
      const [message] = await e.messagesOf({ transactionId });
      expect(message).toMatchObject({
        channel: 'email',
        status: 'warning',
        providerId: 'sendgrid',
        errorText: 'Subscriber does not have an email address',
        subject: 'Hello Umbrella Corp',
        content: [{ type: 'text', content: 'Hello John Doe, Welcome to Umbrella Corp' }],
      });
    });
  });

  describe('sms', () => {
    it('keeps the rendered text of an SMS to a subscriber without a phone, with the reason, and cancels the job', async () => {
      const e = await environment();
      await e.integration({ providerId: 'twilio', channel: 'sms', credentials: { accountSid: 'AC1', token: 'secret', from: '+15550000000' } });
      const wf = await e.createWorkflow([{ template: { type: 'sms', content: 'Hello {{subscriber.lastName}}, welcome to {{payload.organizationName}}' } }]);
      const subscriberId = await e.subscriber({ lastName: 'Smith' });
      const { transactionId } = await e.trigger({ name: wf.identifier, to: subscriberId, payload: { organizationName: 'Umbrella Corp' } });
      const [notification] = await e.settled(transactionId);
      expect(notification.jobs[0].status).toBe('canceled');
      expect(detailsOf(notification.jobs[0])).toContain('Subscriber missing phone number');
      const [message] = await e.messagesOf({ transactionId });
      expect(message).toMatchObject({
        channel: 'sms',
        status: 'warning',
        content: 'Hello Smith, welcome to Umbrella Corp',
        errorId: 'no_subscriber_phone',
        errorText: 'Subscriber does not have active phone',
      });
    });
  });

  it('keeps a key from seeing another environment’s step records', async () => {
    const mine = await environment();
    const theirs = await environment();
    const wf = await mine.createWorkflow([inApp('private')]);
    const subscriberId = await mine.subscriber();
    const { transactionId } = await mine.trigger({ name: wf.identifier, to: subscriberId });
    await mine.settled(transactionId);
    expect(await theirs.notificationsOf(transactionId)).toHaveLength(0);
    expect(await theirs.messagesOf({ transactionId })).toHaveLength(0);
  });
});
