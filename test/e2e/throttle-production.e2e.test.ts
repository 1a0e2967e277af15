import { systemClock } from '@app/kernel';
import { SqlClient, createSqlClient } from '@app/store-sql';
import { CreateWorkflow } from '@app/workflows';
import { SqlLayoutRepository, SqlWorkflowRepository } from '../../libs/store-sql/src/workflows';
import { ServiceHarness, buildService, sleep } from '../support/service-processes';
import { uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

jest.setTimeout(120_000);

const SETTLED = ['completed', 'failed', 'canceled', 'merged', 'skipped'];
/** The window each run asks for: long enough for a round of triggers to run inside it, short enough to wait out. */
const WINDOW = { amount: 8, unit: 'seconds' };

/**
 * The throttle step in production mode: the built api and TWO workers on PostgreSQL and Redis. A
 * 1-second delay before the throttle puts each run on the steps queue, so both workers take runs of
 * one subscriber at once; the window is counted in the store. v1's API keeps Novu v1's step types,
 * so the workflow is written through the CreateWorkflow use case on the harness's database.
 */
describe('throttle step in production mode: api + two workers on PostgreSQL and Redis', () => {
  let buildDir: string;
  let h: ServiceHarness;
  let sql: SqlClient;
  let workflow: string;

  beforeAll(async () => {
    buildDir = await buildService();
    h = await ServiceHarness.create(buildDir);
    await h.startApi();
    await h.startWorker();
    await h.startWorker();
    const me = (await h.expect(200, 'GET', '/v1/environments/me')).data;
    sql = await createSqlClient({ url: h.databaseUrl, poolSize: 1 });
    const created = await new CreateWorkflow(new SqlWorkflowRepository(sql), systemClock, new SqlLayoutRepository(sql)).execute({
      scope: { organizationId: me._organizationId, environmentId: me._id },
      creatorId: 'test',
      fields: {
        name: uniqueName('throttled'),
        active: true,
        steps: [
          { template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'seconds' } },
          { name: 'Limit', template: { type: 'throttle' }, metadata: { type: 'dynamic', dynamicKey: 'payload.window', threshold: 3 } },
          { template: { type: 'in_app', content: 'Run {{payload.n}}' } },
        ],
      },
    });
    workflow = created.trigger.identifier;
  }, 180_000);

  afterAll(async () => {
    await sql?.close();
    await h?.close();
  }, 60_000);

  async function round(subscriberId: string, from: number): Promise<void> {
    await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        h.expect(201, 'POST', '/v1/events/trigger', { name: workflow, to: subscriberId, payload: { n: from + n, window: WINDOW } }),
      ),
    );
  }

  /** The subscriber's notifications once `count` of them have every job settled. */
  async function settled(subscriberId: string, count: number): Promise<any[]> {
    return waitFor(async () => {
      const query = new URLSearchParams({ subscriberIds: subscriberId, limit: '100' }).toString();
      const notifications = (await h.expect(200, 'GET', `/v1/notifications?${query}`)).data as any[];
      return (
        notifications.length === count &&
        notifications.every((n) => n.jobs.length === 3 && n.jobs.every((j: any) => SETTLED.includes(j.status))) &&
        notifications
      );
    }, 60_000);
  }

  async function inAppMessages(subscriberId: string): Promise<any[]> {
    return (await h.expect(200, 'GET', `/v1/messages?${new URLSearchParams({ subscriberId, channel: 'in_app', limit: '100' }).toString()}`)).data;
  }

  const throttleDetail = (n: any) => n.jobs[1].executionDetails.find((d: any) => d.detail.startsWith('Throttle'));

  it('runs the api and two consuming workers', async () => {
    expect(await h.consumerCount('steps')).toBe(2);
  });

  it('20 concurrent triggers for one subscriber against threshold 3: 3 delivered, 17 skipped saying so; after the window, 3 again', () =>
    h.withOutputs(async () => {
      const subscriberId = uniqueName('sub');
      await h.expect(201, 'POST', '/v2/subscribers', { subscriberId });

      await round(subscriberId, 0);
      const first = await settled(subscriberId, 20);
      const statuses = first.map((n) => n.jobs.map((j: any) => `${j.type}:${j.status}`).join(' '));
      expect(statuses.filter((s) => s === 'delay:completed throttle:completed in_app:completed')).toHaveLength(3);
      expect(statuses.filter((s) => s === 'delay:completed throttle:skipped in_app:skipped')).toHaveLength(17);
      expect(await inAppMessages(subscriberId)).toHaveLength(3);
      for (const n of first.filter((candidate) => candidate.jobs[1].status === 'skipped')) {
        expect(throttleDetail(n).detail).toBe('Throttle limit exceeded');
        expect(JSON.parse(throttleDetail(n).raw)).toMatchObject({ throttled: true, executionCount: 3, threshold: 3 });
        expect(n.jobs[2].executionDetails.map((d: any) => d.detail)).toContain('Step was skipped because a throttle step before it exceeded its limit');
      }
      // one window for all of them, opened by the first run admitted
      const windows = new Set(first.map((n) => JSON.parse(throttleDetail(n).raw).throttledUntil));
      expect(windows.size).toBe(1);

      // after the window: the next round opens a new one
      const [until] = [...windows] as string[];
      await sleep(Math.max(0, new Date(until).getTime() - Date.now()));
      await round(subscriberId, 100);
      const both = await settled(subscriberId, 40);
      const second = both.filter((n) => !first.some((earlier) => earlier._id === n._id));
      expect(second.filter((n) => n.jobs[2].status === 'completed')).toHaveLength(3);
      expect(second.filter((n) => n.jobs[1].status === 'skipped')).toHaveLength(17);
      expect(new Set(second.map((n) => JSON.parse(throttleDetail(n).raw).throttledUntil)).size).toBe(1);
      expect(await inAppMessages(subscriberId)).toHaveLength(6);
    }));
});
