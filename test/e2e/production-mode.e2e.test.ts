import { createHmac } from 'node:crypto';
import { LoopbackReceiver } from '../../libs/providers/src/testing/loopback-receiver';
import { deterministicId } from '../../libs/kernel/src';
import { BullJobQueue } from '../../libs/queue/src/bull/bull-job-queue';
import { ServiceHarness, ServiceProcess, buildService, sleep } from '../support/service-processes';
import { TEST_REDIS_URL, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

/**
 * Production mode end to end: the built api (`--mode=api`, HTTP only) and TWO separate worker
 * processes on PostgreSQL and Redis (Bull). Everything the api accepts is delivered by whichever
 * worker takes it; state shared between workers (digest buckets, job statuses) is in the store.
 */
jest.setTimeout(120_000);

const TERMINAL = ['completed', 'failed', 'canceled', 'merged', 'skipped'];
const SECRET_KEY = 'production-chat-secret';

describe('production mode: api + two workers on PostgreSQL and Redis', () => {
  let buildDir: string;
  let h: ServiceHarness;
  let receiver: LoopbackReceiver;
  let workers: ServiceProcess[] = [];

  beforeAll(async () => {
    buildDir = await buildService();
    h = await ServiceHarness.create(buildDir);
    receiver = await LoopbackReceiver.start();
    await h.startApi();
    workers = [await h.startWorker(), await h.startWorker()];
    await h.expect(201, 'POST', '/v1/integrations', { providerId: 'chat-webhook', channel: 'chat', active: true, credentials: { secretKey: SECRET_KEY } });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  }, 60_000);

  async function createWorkflow(steps: unknown[]): Promise<string> {
    const identifier = uniqueName('wf').toLowerCase();
    await h.expect(201, 'POST', '/v1/workflows', { name: identifier, identifier, active: true, steps });
    return identifier;
  }

  const inApp = (content: string) => ({ template: { type: 'in_app', content } });
  const chat = (content: string) => ({ template: { type: 'chat', content } });

  async function trigger(body: Record<string, unknown>): Promise<{ transactionId: string; status: string }> {
    return (await h.expect(201, 'POST', '/v1/events/trigger', body)).data;
  }

  async function messagesOf(query: Record<string, string>): Promise<any[]> {
    const res = await h.request('GET', `/v1/messages?${new URLSearchParams({ limit: '100', ...query }).toString()}`);
    if (res.status === 404 && query.subscriberId) return []; // the fan-out has not created the subscriber yet
    if (res.status !== 200) throw new Error(`GET /v1/messages answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  }

  async function settledNotifications(transactionId: string, timeoutMs = 30_000): Promise<any[]> {
    return waitFor(async () => {
      const { data } = await h.expect(200, 'GET', `/v1/notifications?${new URLSearchParams({ transactionId, limit: '100' }).toString()}`);
      return data.length > 0 && data.every((n: any) => n.jobs.length > 0 && n.jobs.every((j: any) => TERMINAL.includes(j.status))) && data;
    }, timeoutMs);
  }

  async function chatSubscriber(): Promise<{ subscriberId: string; path: string }> {
    const subscriberId = uniqueName('chat');
    const path = `/chat/${subscriberId}`;
    await h.expect(201, 'POST', '/v2/subscribers', { subscriberId });
    await h.expect(200, 'PUT', `/v1/subscribers/${subscriberId}/credentials`, { providerId: 'chat-webhook', credentials: { webhookUrl: receiver.url(path) } });
    return { subscriberId, path };
  }

  it('runs the api and two consuming workers', async () => {
    expect(await h.consumerCount('steps')).toBe(2);
    expect(await h.consumerCount('fanout')).toBe(2);
  });

  it('delivers an in-app message', () =>
    h.withOutputs(async () => {
      const workflow = await createWorkflow([inApp('Hello {{payload.name}}, {{subscriber.firstName}}!')]);
      const subscriberId = uniqueName('sub');
      const { transactionId, status } = await trigger({ name: workflow, to: { subscriberId, firstName: 'Ada' }, payload: { name: 'World' } });
      expect(status).toBe('processed');
      const [message] = await waitFor(async () => {
        const page = await messagesOf({ subscriberId });
        return page.length === 1 && page;
      });
      expect(message).toMatchObject({ channel: 'in_app', content: 'Hello World, Ada!', status: 'sent', transactionId });
      const [notification] = await settledNotifications(transactionId);
      expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed']);
    }));

  it('delivers chat through a signed webhook, retrying a 503 then succeeding, once per Idempotency-Key', () =>
    h.withOutputs(async () => {
      const workflow = await createWorkflow([chat('Order {{payload.order}} shipped')]);
      const { subscriberId, path } = await chatSubscriber();
      let calls = 0;
      receiver.respond((request, res) => {
        if (request.path === path && ++calls === 1) return void res.writeHead(503).end('busy');
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"remote"}');
      });
      const { transactionId } = await trigger({ name: workflow, to: subscriberId, payload: { order: 7 } });
      const [notification] = await settledNotifications(transactionId);
      expect(notification.jobs[0].status).toBe('completed');
      expect(notification.jobs[0].executionDetails.map((d: any) => d.detail)).toEqual(
        expect.arrayContaining(['Provider error, retry scheduled', 'Message sent']),
      );
      const [message] = await messagesOf({ subscriberId, channel: 'chat' });
      expect(message).toMatchObject({ status: 'sent', content: 'Order 7 shipped', transactionId });
      const deliveries = receiver.requests.filter((r) => r.path === path);
      expect(deliveries).toHaveLength(2);
      expect(new Set(deliveries.map((d) => d.headers['idempotency-key']))).toEqual(new Set([message._id]));
      const last = deliveries[1];
      expect(last.headers['x-novu-signature']).toBe(createHmac('sha256', SECRET_KEY).update(last.rawBody).digest('hex'));
    }));

  it('fails a chat delivery at once on a permanent (4xx) error', () =>
    h.withOutputs(async () => {
      const workflow = await createWorkflow([chat('Never arrives')]);
      const { subscriberId, path } = await chatSubscriber();
      receiver.respond((request, res) => {
        if (request.path === path) return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad"}');
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"remote"}');
      });
      const { transactionId } = await trigger({ name: workflow, to: subscriberId });
      const [notification] = await settledNotifications(transactionId);
      expect(notification.jobs[0].status).toBe('failed');
      const [message] = await messagesOf({ subscriberId, channel: 'chat' });
      expect(message.status).toBe('error');
      expect(receiver.requests.filter((r) => r.path === path)).toHaveLength(1);
    }));

  it('waits out a delay, and a cancel stops a delayed notification', () =>
    h.withOutputs(async () => {
      const delayed = await createWorkflow([
        { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'seconds' } },
        inApp('after the delay'),
      ]);
      const subscriberId = uniqueName('delay');
      const started = Date.now();
      const { transactionId } = await trigger({ name: delayed, to: subscriberId });
      const [notification] = await settledNotifications(transactionId);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
      expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed']);
      expect((await messagesOf({ subscriberId })).map((m) => m.content)).toEqual(['after the delay']);

      const slow = await createWorkflow([{ template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } }, inApp('never')]);
      const other = uniqueName('cancel');
      const canceled = await trigger({ name: slow, to: other });
      await waitFor(async () => {
        const { data } = await h.expect(200, 'GET', `/v1/notifications?transactionId=${canceled.transactionId}`);
        return data[0]?.jobs[0]?.status === 'delayed';
      });
      expect((await h.expect(200, 'DELETE', `/v1/events/trigger/${canceled.transactionId}`)).data).toBe(true);
      const [stopped] = await settledNotifications(canceled.transactionId);
      expect(stopped.jobs.map((j: any) => j.status)).toEqual(['canceled', 'canceled']);
      expect(await messagesOf({ subscriberId: other })).toHaveLength(0);
    }));

  it('merges 50 concurrent triggers into exactly one digest across two workers', () =>
    h.withOutputs(async () => {
      const workflow = await createWorkflow([
        { template: { type: 'digest' }, metadata: { type: 'regular', amount: 2, unit: 'seconds' } },
        inApp('{{step.total_count}} events'),
      ]);
      const subscriberId = uniqueName('digest');
      await h.expect(201, 'POST', '/v2/subscribers', { subscriberId });
      const triggers = await Promise.all(Array.from({ length: 50 }, (_, i) => trigger({ name: workflow, to: subscriberId, payload: { i } })));
      await Promise.all(triggers.map((t) => settledNotifications(t.transactionId, 60_000)));
      const messages = await messagesOf({ subscriberId });
      expect(messages).toHaveLength(1);
      expect(messages[0].content).toBe('50 events');
    }));

  it('acknowledges a repeated transactionId and delivers it once', () =>
    h.withOutputs(async () => {
      const workflow = await createWorkflow([inApp('once')]);
      const subscriberId = uniqueName('dedup');
      const transactionId = uniqueName('txn');
      const answers = await Promise.all(Array.from({ length: 5 }, () => trigger({ name: workflow, to: subscriberId, transactionId })));
      expect(answers).toEqual(
        Array.from({ length: 5 }, () => ({
          acknowledged: true,
          status: 'processed',
          transactionId,
          activityFeedLink: `/v1/notifications?transactionId=${transactionId}`,
        })),
      );
      await settledNotifications(transactionId);
      await sleep(500);
      expect(await messagesOf({ subscriberId })).toHaveLength(1);
    }));

  it('hands the chain on when a finished step is redelivered after its worker died between "next queued" and the enqueue', () =>
    h.withOutputs(async () => {
      const workflow = await createWorkflow([inApp('first'), inApp('second')]);
      const subscriberId = uniqueName('resume');
      const { transactionId } = await trigger({ name: workflow, to: subscriberId });
      const [notification] = await settledNotifications(transactionId);
      const [first, second] = notification.jobs.map((j: any) => j._id as string);
      // Recreate what a kill -9 at that moment leaves: the first job completed, the second marked
      // queued but absent from the queue, and Bull redelivering the first job (its lock expired).
      await h.sql.query(`DELETE FROM messages WHERE job_id = $1`, [second]);
      await h.sql.query(`UPDATE jobs SET status = 'queued' WHERE id = $1`, [second]);
      const queue = new BullJobQueue({ redisUrl: TEST_REDIS_URL, prefix: h.queuePrefix });
      try {
        expect(await queue.remove('steps', second)).toBe(true);
        // the first step ran inside the fan-out job: it has no queue job of its own to remove
        expect(await queue.remove('steps', first)).toBe(false);
        await queue.add('steps', { id: first, data: { jobId: first }, attempts: 6, backoff: { type: 'exponential', delayMs: 1_000 } });
      } finally {
        await queue.close();
      }
      const messages = await waitFor(async () => {
        const page = await messagesOf({ subscriberId });
        return page.length === 2 && page;
      });
      expect(messages.map((m) => m.content).sort()).toEqual(['first', 'second']);
      const [after] = await settledNotifications(transactionId);
      expect(after.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed']);
    }));

  it('keeps what it accepted while no worker runs; the reconciler re-enqueues a trigger that never reached the queue', () =>
    h.withOutputs(async () => {
      const workflow = await createWorkflow([inApp('accepted while the workers were down')]);
      await Promise.all(workers.map((worker) => worker.kill()));
      await waitFor(async () => (await h.consumerCount('steps')) === 0 && (await h.consumerCount('fanout')) === 0);

      const subscribers = Array.from({ length: 10 }, () => uniqueName('durable'));
      const accepted = await Promise.all(subscribers.map((subscriberId) => trigger({ name: workflow, to: subscriberId })));
      // The lost enqueue: what the api does when Redis fails it (logs, still answers 201). Simulated
      // by removing a fan-out job (it carries the triggers accepted with this one) from the queue and
      // ageing its triggers past the reconciler's wait.
      const lost = accepted[0];
      const [{ id: triggerId, status, fanout_job_id: jobId }] = (
        await h.sql.query('SELECT id, status, fanout_job_id FROM triggers WHERE transaction_id = $1', [lost.transactionId])
      ).rows;
      expect(status).toBe('accepted');
      const queue = new BullJobQueue({ redisUrl: TEST_REDIS_URL, prefix: h.queuePrefix });
      try {
        expect(await queue.getJobState('fanout', jobId)).toBe('waiting');
        expect(await queue.remove('fanout', jobId)).toBe(true);
        expect(await queue.getJobState('fanout', jobId)).toBeUndefined();
      } finally {
        await queue.close();
      }
      // (the reconciler reads accepted triggers from their listing, triggers_pending, which keeps each one's created_at)
      await h.sql.query(
        `WITH aged AS (UPDATE triggers SET created_at = created_at - interval '5 minutes' WHERE fanout_job_id = $1 RETURNING id)
         UPDATE triggers_pending SET created_at = created_at - interval '5 minutes' WHERE id IN (SELECT id FROM aged)`,
        [jobId],
      );

      workers = [await h.startWorker()];
      for (const [i, subscriberId] of subscribers.entries()) {
        // The reconciler runs every 10 s: the lost trigger takes up to that long.
        const [message] = await waitFor(async () => {
          const page = await messagesOf({ subscriberId });
          return page.length > 0 && page;
        }, 40_000);
        expect(message.transactionId).toBe(accepted[i].transactionId);
      }
      for (const subscriberId of subscribers) expect(await messagesOf({ subscriberId })).toHaveLength(1);
      const [{ status: after }] = (await h.sql.query('SELECT status FROM triggers WHERE id = $1', [triggerId])).rows;
      expect(after).toBe('processed');
    }));

  it('gives a new trigger time-ordered ids, and resumes the fan-out of one an earlier version accepted under its hash-only ids, delivering once', () =>
    h.withOutputs(async () => {
      const workflow = await createWorkflow([inApp('ids'), inApp('ids, second step')]);
      await Promise.all(workers.map((worker) => worker.kill()));
      await waitFor(async () => (await h.consumerCount('steps')) === 0 && (await h.consumerCount('fanout')) === 0);
      const [ada, bob, cy] = ['ada', 'bob', 'cy'].map((name) => uniqueName(name));
      const fresh = await trigger({ name: workflow, to: ada });
      const earlier = await trigger({ name: workflow, to: [bob, cy] });
      // What an api before this version wrote: no mark, so the fan-out derives the ids that version derived.
      await h.sql.query('UPDATE triggers SET time_ordered_ids = NULL WHERE transaction_id = $1', [earlier.transactionId]);
      workers = [await h.startWorker()];
      await settledNotifications(fresh.transactionId);
      await settledNotifications(earlier.transactionId);

      const rowsOf = async (transactionId: string) =>
        (
          await h.sql.query(
            `SELECT n.id, n.environment_id, n.subscriber_id, t.id AS trigger_id, t.created_at,
               n.first_job->>'id' AS first_job_id, n.first_job->>'step_id' AS first_step_id, j.id AS second_job_id, j.step_id AS second_step_id
             FROM notifications n JOIN triggers t ON t.environment_id = n.environment_id AND t.transaction_id = n.transaction_id
             JOIN jobs j ON j.notification_id = n.id WHERE n.transaction_id = $1`,
            [transactionId],
          )
        ).rows;
      const [made] = await rowsOf(fresh.transactionId);
      const second = Math.floor(made.created_at.getTime() / 1000).toString(16);
      expect([made.id, made.first_job_id, made.second_job_id].map((id: string) => id.slice(0, 8))).toEqual([second, second, second]);
      const madeBefore = await rowsOf(earlier.transactionId);
      expect(madeBefore).toHaveLength(2);
      for (const row of madeBefore) {
        expect(row.id).toBe(deterministicId(row.environment_id, earlier.transactionId, row.subscriber_id));
        expect(row.first_job_id).toBe(deterministicId(row.id, row.first_step_id));
        expect(row.second_job_id).toBe(deterministicId(row.id, row.second_step_id));
      }

      // The earlier version's fan-out redelivered (its worker died before it marked the trigger done).
      const triggerId = madeBefore[0].trigger_id;
      await h.sql.query(`UPDATE triggers SET status = 'accepted' WHERE id = $1`, [triggerId]);
      const queue = new BullJobQueue({ redisUrl: TEST_REDIS_URL, prefix: h.queuePrefix });
      try {
        await queue.add('fanout', { id: uniqueName('redelivered'), data: { triggerIds: [triggerId] }, attempts: 1 });
      } finally {
        await queue.close();
      }
      await waitFor(async () => (await h.sql.query('SELECT status FROM triggers WHERE id = $1', [triggerId])).rows[0].status === 'processed');
      expect((await rowsOf(earlier.transactionId)).map((row) => row.id).sort()).toEqual(madeBefore.map((row) => row.id).sort());
      for (const subscriberId of [bob, cy]) expect(await messagesOf({ subscriberId })).toHaveLength(2);
    }));
});
