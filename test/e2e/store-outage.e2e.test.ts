import { JsonResponse, ServiceHarness, ServiceProcess, buildService, sleep } from '../support/service-processes';
import { PrivatePostgres } from '../support/private-postgres';
import { uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

/**
 * The store goes away and comes back under load: production mode (api + worker) on a PostgreSQL
 * server of the test's own, crashed (SIGKILL of the postmaster) and restarted, then stopped fast
 * (SIGINT, as `pg_ctl restart -m fast`) and restarted, while triggers keep coming. The processes
 * stay up, every request is answered promptly (201, or 503 with Retry-After while the store is
 * away), and every 201 is delivered exactly once, its delayed second step included.
 */
jest.setTimeout(240_000);

interface Sent {
  transactionId: string;
  status: number;
  ms: number;
  response: JsonResponse | { error: string };
}

describe('a PostgreSQL crash and a fast restart under a burst of triggers', () => {
  let buildDir: string;
  let postgres: PrivatePostgres;
  let h: ServiceHarness;
  let api: ServiceProcess;
  let worker: ServiceProcess;

  beforeAll(async () => {
    [buildDir, postgres] = await Promise.all([buildService(), PrivatePostgres.create()]);
    await postgres.start();
    h = await ServiceHarness.create(buildDir, { adminDatabaseUrl: postgres.url, env: { RECOVERY_AFTER_SECONDS: '3', LOG_LEVEL: 'info' } });
    api = await h.startApi();
    worker = await h.startWorker();
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    await postgres?.destroy();
  }, 60_000);

  /** One trigger, with the time it took and the answer (or the connection error). */
  async function trigger(identifier: string, n: number): Promise<Sent> {
    const transactionId = `outage-${n}-${uniqueName('t')}`;
    const started = Date.now();
    try {
      const response = await h.request('POST', '/v1/events/trigger', { name: identifier, to: `sub-${n % 20}`, payload: { n }, transactionId });
      return { transactionId, status: response.status, ms: Date.now() - started, response };
    } catch (error) {
      return { transactionId, status: 0, ms: Date.now() - started, response: { error: (error as Error).message } };
    }
  }

  it('keeps both processes up, answers every request promptly, and delivers every 201 exactly once', async () => {
    const identifier = uniqueName('outage').toLowerCase();
    await h.expect(201, 'POST', '/v1/workflows', {
      name: identifier,
      identifier,
      active: true,
      steps: [
        { template: { type: 'in_app', content: 'first {{payload.n}}' } },
        { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'seconds' } },
        { template: { type: 'in_app', content: 'second {{payload.n}}' } },
      ],
    });

    // Triggers from four clients, one after the other each, for as long as the outages last.
    const sent: Sent[] = [];
    let sending = true;
    let n = 0;
    const clients = Array.from({ length: 4 }, async () => {
      while (sending) {
        sent.push(await trigger(identifier, n++));
        await sleep(20);
      }
    });
    const healthDuringOutage: JsonResponse[] = [];
    const outage = async (stop: () => Promise<void>) => {
      await sleep(1_500);
      await stop();
      await sleep(1_500);
      healthDuringOutage.push(await h.request('GET', '/v1/health-check'));
      await sleep(1_000);
      await postgres.start();
    };
    try {
      await outage(() => postgres.crash());
      await outage(() => postgres.stopFast());
      await sleep(2_000);
    } finally {
      sending = false;
      await Promise.all(clients);
    }

    // Every request was answered, none hung: 201, or 503 saying why and when to come back.
    const unexpected = sent.filter((s) => s.status !== 201 && s.status !== 503);
    expect(unexpected).toEqual([]);
    const refused = sent.filter((s) => s.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const s of refused) {
      expect((s.response as JsonResponse).body).toMatchObject({
        statusCode: 503,
        code: 'store_unavailable',
        message: 'The store cannot be reached; retry later',
      });
      expect(Number((s.response as JsonResponse).headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(Math.max(...sent.map((s) => s.ms))).toBeLessThan(10_000);
    for (const health of healthDuringOutage) {
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'error', details: { store: { status: 'down' } } });
    }

    // Every accepted trigger delivers both its steps, once each.
    const accepted = sent.filter((s) => s.status === 201).map((s) => s.transactionId);
    expect(accepted.length).toBeGreaterThan(50);
    const delivered = await waitFor(async () => {
      const { rows } = await h.sql
        .query(`SELECT transaction_id, count(*)::int AS n FROM messages WHERE channel = 'in_app' AND transaction_id = ANY($1) GROUP BY transaction_id`, [
          accepted,
        ])
        .catch(() => ({ rows: [] as { transaction_id: string; n: number }[] }));
      const complete = rows.filter((row) => row.n >= 2).length;
      return complete === accepted.length && rows;
    }, 90_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${h.outputs()}\n--- postgres ---\n${postgres.logs()}`);
    });
    expect(delivered.filter((row) => row.n !== 2)).toEqual([]);
    // A 503'd trigger may have been stored before its connection died: then it is delivered whole, once.
    const { rows: others } = await h.sql.query(
      `SELECT transaction_id, count(*)::int AS n FROM messages WHERE transaction_id <> ALL($1) GROUP BY transaction_id HAVING count(*) <> 2`,
      [accepted],
    );
    expect(others).toEqual([]);
    // No job was failed for the outage: the worker deferred them without spending attempts.
    const { rows: failed } = await h.sql.query(`SELECT count(*)::int AS n FROM jobs WHERE status = 'failed'`);
    expect(failed[0].n).toBe(0);

    expect(api.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();
    expect(worker.output()).toMatch(/takes no queue job until it answers/);
    expect(worker.output()).toMatch(/The store answers again after/);
  });
});
