import { ChildProcess } from 'node:child_process';
import { ServiceHarness, ServiceProcess, buildService, freePort } from '../support/service-processes';
import { startRedis, stopRedis } from '../support/own-redis';
import { uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

/**
 * An accepted trigger survives a Redis restart that loses every queue entry (a Redis without
 * persistence): the store is the record, and the workers' recovery enqueues again what the
 * queue lost. Uses a Redis of its own on a free port, never the shared one.
 */
jest.setTimeout(180_000);

describe('a Redis restart that loses the queues', () => {
  let buildDir: string;
  let h: ServiceHarness;
  let redis: ChildProcess;
  let redisPort: number;
  let worker: ServiceProcess;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    buildDir = await buildService();
    h = await ServiceHarness.create(buildDir, { redisUrl: `redis://127.0.0.1:${redisPort}`, env: { RECOVERY_AFTER_SECONDS: '3' } });
    await h.startApi();
    worker = await h.startWorker();
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    if (redis) await stopRedis(redis);
  }, 60_000);

  it('delivers delayed steps whose wake-ups were in the lost queue', async () => {
    const identifier = uniqueName('restart').toLowerCase();
    await h.expect(201, 'POST', '/v1/workflows', {
      name: identifier,
      identifier,
      active: true,
      steps: [{ template: { type: 'delay' }, metadata: { type: 'regular', amount: 4, unit: 'seconds' } }, { template: { type: 'in_app', content: 'kept' } }],
    });
    const subscribers = Array.from({ length: 10 }, (_, i) => uniqueName(`r${i}`));
    const transactionIds: string[] = [];
    for (const subscriberId of subscribers) {
      transactionIds.push((await h.expect(201, 'POST', '/v1/events/trigger', { name: identifier, to: subscriberId })).data.transactionId);
    }
    // Every chain is waiting on its delay: the wake-ups live only in Redis now.
    await waitFor(async () => {
      const { rows } = await h.sql.query(`SELECT count(*)::int AS n FROM jobs WHERE type = 'delay' AND status = 'delayed'`);
      return rows[0].n === subscribers.length;
    });

    await stopRedis(redis);
    redis = await startRedis(redisPort);
    // The worker's Redis connections come back by themselves; the queue entries do not.

    const delivered = await waitFor(async () => {
      const { rows } = await h.sql.query(`SELECT transaction_id FROM messages WHERE channel = 'in_app' AND content = '"kept"'::jsonb`);
      return rows.length >= subscribers.length && rows;
    }, 90_000).catch((error) => {
      throw new Error(`${error.message}\n${h.outputs()}`);
    });
    expect(new Set(delivered.map((r: { transaction_id: string }) => r.transaction_id))).toEqual(new Set(transactionIds));
    expect(delivered).toHaveLength(subscribers.length);
    expect(worker.child.exitCode).toBeNull();
    // It was the recovery, not a surviving queue entry, that woke them.
    expect(worker.output()).toMatch(/Re-enqueued \d+ step job\(s\) the queue had lost/);
  });
});
