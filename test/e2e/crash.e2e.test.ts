import { LoopbackReceiver } from '../../libs/providers/src/testing/loopback-receiver';
import { ServiceHarness, ServiceProcess, buildService } from '../support/service-processes';
import { waitFor } from '../support/wait-for';

/**
 * The crash test: `kill -9` the only worker in the middle of 5,000 triggers (1,000 subscribers ×
 * 5, each to an in-app and a chat step), start another, and check that nothing was lost or doubled:
 * exactly one in-app message per trigger, and every chat delivery reached the webhook receiver
 * under its Idempotency-Key. A redelivered job may call the receiver again with the same key (that
 * is the contract: the key makes it the same delivery); the number of such repeats is reported.
 */
const SUBSCRIBERS = 1_000;
const TRIGGERS_PER_SUBSCRIBER = 5;
const TRIGGERS = SUBSCRIBERS * TRIGGERS_PER_SUBSCRIBER;
const CONCURRENCY = 50;
const KILL_AT_MESSAGES = Math.round((TRIGGERS * 2) / 3); // about a third of the 10,000 messages
const TERMINAL = ['completed', 'failed', 'canceled', 'merged', 'skipped'];
/** Every job's type and status: the rows of jobs, and the first jobs kept on notification rows (migration 27). */
const ALL_JOBS = `all_jobs AS (SELECT type, status FROM jobs UNION ALL
  SELECT first_job->>'type', first_job->>'status' FROM notifications WHERE first_job IS NOT NULL)`;

jest.setTimeout(360_000);

/** Runs `work` for 0..count-1 with at most `concurrency` at a time. */
async function pool(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

describe('crash: kill -9 the worker in the middle of 5,000 triggers', () => {
  let buildDir: string;
  let h: ServiceHarness;
  let receiver: LoopbackReceiver;

  beforeAll(async () => {
    buildDir = await buildService();
    // A killed worker's jobs come back once their lock runs out and a stalled check sees it: seconds, not the default 45.
    h = await ServiceHarness.create(buildDir, { env: { QUEUE_LOCK_SECONDS: '5', QUEUE_STALLED_CHECK_SECONDS: '2' } });
    receiver = await LoopbackReceiver.start();
    await h.startApi();
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  }, 60_000);

  it('delivers every trigger exactly once after the worker is killed and replaced', async () => {
    const timings: Record<string, number> = {};
    const started = Date.now();
    const mark = (name: string) => (timings[name] = (Date.now() - started) / 1000);
    try {
      await h.expect(201, 'POST', '/v1/integrations', { providerId: 'chat-webhook', channel: 'chat', active: true, credentials: { secretKey: 'crash' } });
      const identifier = 'crash-test';
      await h.expect(201, 'POST', '/v1/workflows', {
        name: identifier,
        identifier,
        active: true,
        steps: [{ template: { type: 'in_app', content: 'In-app {{payload.n}}' } }, { template: { type: 'chat', content: 'Chat {{payload.n}}' } }],
      });
      const subscriberIds = Array.from({ length: SUBSCRIBERS }, (_, i) => `crash-sub-${i}`);
      // the subscribers and their chat webhooks, 500 to a request (the bulk route's limit)
      for (let from = 0; from < SUBSCRIBERS; from += 500) {
        const subscribers = subscriberIds.slice(from, from + 500).map((subscriberId) => ({
          subscriberId,
          channels: [{ providerId: 'chat-webhook', credentials: { webhookUrl: receiver.url(`/chat/${subscriberId}`) } }],
        }));
        const { data } = await h.expect(201, 'POST', '/v1/subscribers/bulk', { subscribers });
        expect(data.failed).toEqual([]);
        expect(data.created).toHaveLength(subscribers.length);
      }
      mark('setup_done_s');

      let worker: ServiceProcess = await h.startWorker();
      mark('worker_started_s');
      // trigger n goes to subscriber n % SUBSCRIBERS, with transactionId crash-n
      const expected = new Map(Array.from({ length: TRIGGERS }, (_, n) => [`crash-${n}`, subscriberIds[n % SUBSCRIBERS]]));
      let accepted = 0;
      const triggering = pool(TRIGGERS, CONCURRENCY, async (n) => {
        await h.expect(201, 'POST', '/v1/events/trigger', {
          name: identifier,
          to: subscriberIds[n % SUBSCRIBERS],
          transactionId: `crash-${n}`,
          payload: { n },
        });
        accepted += 1;
      });
      let triggeringDone = false;
      void triggering.then(
        () => ((triggeringDone = true), mark('triggers_accepted_s')),
        () => undefined,
      );

      // kill -9 once about a third of the messages exist (the triggers are usually still arriving)
      await waitFor(async () => Number((await h.sql.query('SELECT count(*) AS n FROM messages')).rows[0].n) >= KILL_AT_MESSAGES, 120_000, 50);
      await worker.kill();
      mark('worker_killed_s');
      const atKill = {
        acceptedTriggers: accepted,
        triggeringDone,
        messages: Number((await h.sql.query('SELECT count(*) AS n FROM messages')).rows[0].n),
        receiverRequests: receiver.requests.length,
      };
      worker = await h.startWorker();
      mark('second_worker_started_s');
      await triggering;

      // settled: every trigger fanned out, every job in a final status (a first job written finished is
      // kept on its notification's row: ALL_JOBS reads both places)
      let progress: Record<string, number> = {};
      await waitFor(
        async () => {
          const { rows } = await h.sql.query(
            `WITH ${ALL_JOBS} SELECT (SELECT count(*) FROM triggers WHERE status = 'processed')::int AS processed,
                  (SELECT count(*) FROM all_jobs)::int AS jobs,
                  (SELECT count(*) FROM all_jobs WHERE status = ANY($1::text[]))::int AS settled`,
            [TERMINAL],
          );
          progress = rows[0];
          return progress.processed === TRIGGERS && progress.jobs === TRIGGERS * 2 && progress.settled === TRIGGERS * 2;
        },
        240_000,
        500,
      ).catch(async (error) => {
        const statuses = (await h.sql.query(`WITH ${ALL_JOBS} SELECT type, status, count(*)::int AS n FROM all_jobs GROUP BY 1, 2 ORDER BY 1, 2`)).rows;
        const triggers = (await h.sql.query('SELECT status, count(*)::int AS n FROM triggers GROUP BY 1')).rows;
        throw new Error(`not settled: ${JSON.stringify({ progress, statuses, triggers })} (${(error as Error).message})`);
      });
      mark('all_settled_s');

      // exactly one in-app message per trigger, to the subscriber it was sent to
      const inApp = (
        await h.sql.query(
          `SELECT m.transaction_id, s.subscriber_id, count(*)::int AS n FROM messages m JOIN subscribers s ON s.id = m.subscriber_id
           WHERE m.channel = 'in_app' GROUP BY 1, 2`,
        )
      ).rows as { transaction_id: string; subscriber_id: string; n: number }[];
      expect(inApp.filter((row) => row.n !== 1)).toEqual([]);
      expect(inApp).toHaveLength(TRIGGERS);
      expect(inApp.filter((row) => expected.get(row.transaction_id) !== row.subscriber_id)).toEqual([]);

      // every chat message sent, and the receiver saw each one under its Idempotency-Key
      const chat = (await h.sql.query(`SELECT id, status, transaction_id FROM messages WHERE channel = 'chat'`)).rows as {
        id: string;
        status: string;
        transaction_id: string;
      }[];
      expect(chat).toHaveLength(TRIGGERS);
      expect(chat.filter((m) => m.status !== 'sent')).toEqual([]);
      expect(new Set(chat.map((m) => m.transaction_id)).size).toBe(TRIGGERS);
      const chatRequests = receiver.requests.filter((r) => r.path.startsWith('/chat/'));
      const pathOfKey = new Map<string, Set<string>>();
      for (const request of chatRequests) {
        const key = String(request.headers['idempotency-key']);
        pathOfKey.set(key, (pathOfKey.get(key) ?? new Set()).add(request.path));
      }
      const missing = chat.filter((m) => !pathOfKey.has(m.id)).map((m) => m.transaction_id);
      expect(missing).toEqual([]);
      expect(pathOfKey.size).toBe(TRIGGERS);
      expect([...pathOfKey.values()].filter((paths) => paths.size !== 1)).toEqual([]);
      const rawRepeats = chatRequests.length - pathOfKey.size;

      const report = { triggers: TRIGGERS, atKill, chatRequests: chatRequests.length, distinctKeys: pathOfKey.size, rawRepeats, timings };
      process.stdout.write(`crash test: ${JSON.stringify(report)}\n`);
    } catch (error) {
      (error as Error).message += `\ntimings ${JSON.stringify(timings)}\n${h.outputs()}`;
      throw error;
    }
  });
});
