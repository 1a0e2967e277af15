import { ChildProcess } from 'node:child_process';
import { ServiceHarness, ServiceProcess, buildService, freePort, sleep } from '../support/service-processes';
import { startRedis, stopRedis } from '../support/own-redis';
import { uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

/**
 * Redis frozen (SIGSTOP) in the middle of a burst of triggers, as in a partition or a hung failover:
 * no request waits for it much past REDIS_COMMAND_TIMEOUT_MS per command; a trigger is answered once
 * it is stored; one with an Idempotency-Key gets 503 and Retry-After; the health check says Redis is
 * down; once Redis runs again (SIGCONT) every accepted trigger is delivered exactly once. A Redis of
 * its own on a free port, never the shared one.
 */
jest.setTimeout(180_000);

const FREEZE_MS = 10_000;
const COMMAND_TIMEOUT_MS = 1_000;
/**
 * A request with a key waits for two commands at most (the rate-limit counter, then the key's claim):
 * twice the command timeout, and room for a loaded machine. A bound, not a benchmark.
 */
const LONGEST_ANSWER_MS = 2 * COMMAND_TIMEOUT_MS + 2_000;

interface Sent {
  transactionId: string;
  keyed: boolean;
  startedAt: number;
  tookMs: number;
  status: number;
  retryAfter: string | null;
  body: { data?: { transactionId?: string }; statusCode?: number; code?: string } | undefined;
}

describe('a Redis that stalls during a burst of triggers', () => {
  let buildDir: string;
  let h: ServiceHarness;
  let redis: ChildProcess;
  let api: ServiceProcess;
  let worker: ServiceProcess;

  beforeAll(async () => {
    const redisPort = await freePort();
    redis = await startRedis(redisPort);
    buildDir = await buildService();
    h = await ServiceHarness.create(buildDir, {
      redisUrl: `redis://127.0.0.1:${redisPort}`,
      env: { RECOVERY_AFTER_SECONDS: '2', REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS) },
    });
    api = await h.startApi();
    worker = await h.startWorker();
  }, 180_000);

  afterAll(async () => {
    redis?.kill('SIGCONT');
    await h?.close();
    if (redis) await stopRedis(redis);
  }, 60_000);

  const get = async (path: string) => {
    const startedAt = Date.now();
    const res = await fetch(`${h.baseUrl}${path}`, { signal: AbortSignal.timeout(30_000) });
    return { status: res.status, text: await res.text(), tookMs: Date.now() - startedAt };
  };

  const trigger = async (name: string, keyed: boolean): Promise<Sent> => {
    const transactionId = uniqueName('txn');
    const startedAt = Date.now();
    const res = await fetch(`${h.baseUrl}/v1/events/trigger`, {
      method: 'POST',
      headers: {
        Authorization: `ApiKey ${h.apiKey}`,
        'Content-Type': 'application/json',
        ...(keyed ? { 'Idempotency-Key': uniqueName('key') } : {}),
      },
      body: JSON.stringify({ name, to: uniqueName('s'), transactionId }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    return {
      transactionId,
      keyed,
      startedAt,
      tookMs: Date.now() - startedAt,
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: text ? JSON.parse(text) : undefined,
    };
  };

  it('answers every request within a few seconds and delivers every accepted trigger exactly once after SIGCONT', async () => {
    const name = uniqueName('stall').toLowerCase();
    await h.expect(201, 'POST', '/v1/workflows', { name, identifier: name, active: true, steps: [{ template: { type: 'in_app', content: 'stalled' } }] });
    await trigger(name, true); // the workflow is cached and the connections are warm

    // A pair of triggers every 200 ms (one with an Idempotency-Key) from 1 s before the freeze to 3 s after it.
    const sent: Promise<Sent>[] = [];
    const burst = (async () => {
      for (const end = Date.now() + FREEZE_MS + 4_000; Date.now() < end; await sleep(200)) sent.push(trigger(name, false), trigger(name, true));
    })();
    await sleep(1_000);
    const frozenAt = Date.now();
    redis.kill('SIGSTOP');
    await sleep(FREEZE_MS / 2);
    const [health, metrics] = await Promise.all([get('/v1/health-check'), get('/metrics')]);
    await sleep(frozenAt + FREEZE_MS - Date.now());
    const thawedAt = Date.now();
    redis.kill('SIGCONT');
    await burst;
    const results = await Promise.all(sent);

    // The health check says promptly that Redis is down; a scrape leaves the queue gauges out.
    expect(health.status).toBe(503);
    expect(JSON.parse(health.text)).toMatchObject({ details: { redis: { status: 'down' } } });
    expect(health.tookMs).toBeLessThan(LONGEST_ANSWER_MS);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/^notify_triggers_accepted_total\{/m);
    expect(metrics.text).not.toMatch(/^notify_queue_jobs\{/m);
    expect(metrics.tookMs).toBeLessThan(LONGEST_ANSWER_MS);

    const slowest = Math.max(...results.map((r) => r.tookMs));
    expect(slowest).toBeLessThan(LONGEST_ANSWER_MS);
    const unexpected = results.filter((r) => (r.keyed ? ![201, 503].includes(r.status) : r.status !== 201));
    expect(unexpected).toEqual([]);
    // Triggers without a key were accepted all through the freeze.
    const duringFreeze = (r: Sent) => r.startedAt > frozenAt && r.startedAt + r.tookMs < thawedAt;
    expect(results.filter((r) => !r.keyed && duringFreeze(r)).length).toBeGreaterThan(20);
    // Those with a key that started while Redis was frozen were refused with 503, Retry-After and a JSON body.
    const refused = results.filter((r) => r.status === 503);
    expect(results.filter((r) => r.keyed && duringFreeze(r) && r.status !== 503)).toEqual([]);
    expect(refused.length).toBeGreaterThan(10);
    for (const r of refused) {
      expect(r.retryAfter).toMatch(/^\d+$/);
      expect(r.body).toMatchObject({ statusCode: 503, code: 'idempotency_store_unavailable' });
    }
    expect(api.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();

    // After SIGCONT: every accepted trigger delivered once, nothing of a refused one.
    const accepted = results.filter((r) => r.status === 201).map((r) => r.transactionId);
    expect(results.filter((r) => r.status === 201 && r.body?.data?.transactionId !== r.transactionId)).toEqual([]);
    const counts = await waitFor(async () => {
      const { rows } = await h.sql.query<{ transaction_id: string; n: number }>(
        `SELECT transaction_id, count(*)::int AS n FROM messages WHERE transaction_id = ANY($1) GROUP BY transaction_id`,
        [results.map((r) => r.transactionId)],
      );
      const { rows: pending } = await h.sql.query(`SELECT count(*)::int AS n FROM triggers_pending`);
      return rows.length >= accepted.length && pending[0].n === 0 && (await idle(h)) && rows;
    }, 60_000).catch((error) => {
      throw new Error(`${error.message}\n${h.outputs()}`);
    });
    expect(Object.fromEntries(counts.map((row) => [row.transaction_id, row.n]))).toEqual(Object.fromEntries(accepted.map((id) => [id, 1])));
    expect(api.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();
  });
});

/** No fan-out or step job waits, runs or waits for a retry (a late duplicate would show up before this). */
async function idle(h: ServiceHarness): Promise<boolean> {
  const key = (queue: string, list: string) => `${h.queuePrefix}:${queue}:${list}`;
  const lengths = await Promise.all(
    ['fanout', 'steps'].flatMap((queue) => [h.redis.llen(key(queue, 'wait')), h.redis.llen(key(queue, 'active')), h.redis.zcard(key(queue, 'delayed'))]),
  );
  return lengths.every((length) => length === 0);
}
