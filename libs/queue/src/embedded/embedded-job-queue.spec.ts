import { rmSync } from 'node:fs';
import { createSqlClient, migrate, SqlClient, SqlQueueJobStore } from '@app/store-sql';
import { migratedPgliteDir } from '../../../../test/support/pglite-template';
import { EmbeddedJobQueue } from './embedded-job-queue';

async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const QUEUE = 'restart-test';

describe('EmbeddedJobQueue on a PGlite directory', () => {
  let dataDir: string;
  beforeEach(async () => (dataDir = await migratedPgliteDir()));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  async function openStore(): Promise<SqlClient> {
    const sql = await createSqlClient({ dataDir });
    await migrate(sql);
    return sql;
  }

  it('loses nothing when the process stops mid-way: running, waiting and delayed jobs all complete after a restart', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `job-${i}`);
    let sql = await openStore();
    // A long lease: after the restart the jobs come back because the store belongs to this process, not by expiry.
    let queue = new EmbeddedJobQueue(new SqlQueueJobStore(sql), { pollIntervalMs: 20, leaseMs: 60_000 });
    await queue.addBulk(QUEUE, [...ids.map((id) => ({ id, data: { id } })), { id: 'delayed', data: { id: 'delayed' }, delayMs: 500 }]);
    const before: string[] = [];
    queue.process(QUEUE, { concurrency: 2 }, async (job) => {
      if (before.length >= 3) await new Promise(() => undefined); // the "crash" catches these mid-job
      before.push(job.id);
    });
    await waitFor(async () => (await queue.getCounts(QUEUE)).active === 2, 'two jobs stuck mid-way');
    await queue.close({ force: true });
    await sql.close();

    sql = await openStore();
    queue = new EmbeddedJobQueue(new SqlQueueJobStore(sql), { pollIntervalMs: 20, leaseMs: 60_000 });
    const after: string[] = [];
    queue.process(QUEUE, { concurrency: 2 }, async (job) => void after.push(job.id));
    await waitFor(async () => (await queue.getCounts(QUEUE)).completed === 11, 'every job to complete');
    expect(new Set([...before, ...after])).toEqual(new Set([...ids, 'delayed']));
    expect(after.filter((id) => before.includes(id))).toEqual([]); // finished work is not redone
    await queue.close();
    await sql.close();
  });

  it('fails a job that keeps killing its consumer instead of redelivering it forever', async () => {
    const sql = await openStore();
    const store = new SqlQueueJobStore(sql);
    const name = 'poison';
    await new EmbeddedJobQueue(store).add(name, { id: 'poison', data: {} });
    for (let crash = 0; crash < 2; crash++) {
      const doomed = new EmbeddedJobQueue(store, { pollIntervalMs: 20, maxStalledCount: 1 });
      doomed.process(name, { concurrency: 1 }, () => new Promise(() => undefined));
      await waitFor(async () => (await doomed.getJobState(name, 'poison')) === 'active', 'the job to be taken');
      await doomed.close({ force: true });
    }
    const survivor = new EmbeddedJobQueue(store, { pollIntervalMs: 20, maxStalledCount: 1 });
    survivor.process(name, { concurrency: 1 }, async () => undefined);
    await waitFor(async () => (await survivor.getJobState(name, 'poison')) === 'failed', 'the job to fail');
    await survivor.close();
    await sql.close();
  });
});
