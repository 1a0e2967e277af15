import { EnvironmentScope } from '@app/kernel';
import { CreateWorkflow, ThrottleMetadata } from '@app/workflows';
import { TestApp, startTestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const SETTLED = ['completed', 'failed', 'canceled', 'merged', 'skipped'];

/**
 * The throttle step end to end in the embedded mode (one process, PGlite): concurrent triggers for
 * one subscriber, counted in the store's throttle window. v1's API keeps Novu v1's step types, so the
 * workflow is created through the CreateWorkflow use case.
 */
describe('throttle step, embedded mode (PGlite)', () => {
  let t: TestApp;
  let scope: EnvironmentScope;
  beforeAll(async () => {
    t = await startTestApp();
    const me = await t.api().get('/v1/environments/me').expect(200);
    scope = { organizationId: me.body.data._organizationId, environmentId: me.body.data._id };
  });
  afterAll(() => t?.close());

  async function throttledWorkflow(metadata: Partial<ThrottleMetadata>): Promise<string> {
    const workflow = await t.app.get(CreateWorkflow).execute({
      scope,
      creatorId: 'test',
      fields: {
        name: uniqueName('throttled'),
        active: true,
        steps: [
          { name: 'Limit', template: { type: 'throttle' }, metadata: { type: 'fixed', ...metadata } },
          { template: { type: 'in_app', content: 'Run {{payload.n}}' } },
        ],
      },
    });
    return workflow.trigger.identifier;
  }

  async function triggerAll(name: string, subscriberId: string, payloads: Record<string, unknown>[]) {
    await Promise.all(payloads.map((payload) => t.api().post('/v1/events/trigger').send({ name, to: subscriberId, payload }).expect(201)));
  }

  /** The subscriber's notifications once `count` of them have every job settled. */
  async function settled(subscriberId: string, count: number): Promise<any[]> {
    return waitFor(async () => {
      const res = await t.api().get('/v1/notifications').query({ subscriberIds: subscriberId, limit: '100' }).expect(200);
      const notifications = res.body.data as any[];
      return (
        notifications.length === count &&
        notifications.every((n) => n.jobs.length === 2 && n.jobs.every((j: any) => SETTLED.includes(j.status))) &&
        notifications
      );
    }, 30_000);
  }

  async function inAppMessages(subscriberId: string): Promise<any[]> {
    return (await t.api().get('/v1/messages').query({ subscriberId, channel: 'in_app', limit: '100' }).expect(200)).body.data;
  }

  it('20 concurrent triggers for one subscriber against threshold 3 a minute: 3 delivered, 17 skipped saying so', async () => {
    const name = await throttledWorkflow({ amount: 1, unit: 'minutes', threshold: 3 });
    const subscriberId = uniqueName('sub');
    await t.api().post('/v2/subscribers').send({ subscriberId }).expect(201);
    await triggerAll(
      name,
      subscriberId,
      Array.from({ length: 20 }, (_, n) => ({ n })),
    );

    const notifications = await settled(subscriberId, 20);
    const statuses = notifications.map((n) => n.jobs.map((j: any) => `${j.type}:${j.status}`).join(' '));
    expect(statuses.filter((s) => s === 'throttle:completed in_app:completed')).toHaveLength(3);
    expect(statuses.filter((s) => s === 'throttle:skipped in_app:skipped')).toHaveLength(17);
    expect(await inAppMessages(subscriberId)).toHaveLength(3);

    const throttled = notifications.filter((n) => n.jobs[0].status === 'skipped');
    for (const n of throttled) {
      const [limit] = n.jobs[0].executionDetails.filter((d: any) => d.detail === 'Throttle limit exceeded');
      expect(JSON.parse(limit.raw)).toMatchObject({ throttled: true, executionCount: 3, threshold: 3 });
      expect(n.jobs[1].executionDetails.map((d: any) => d.detail)).toContain('Step was skipped because a throttle step before it exceeded its limit');
    }
    // every run was counted in the one window the first admitted run opened
    const windows = new Set(
      notifications.map((n) => {
        const raw = JSON.parse(n.jobs[0].executionDetails.find((d: any) => d.detail.startsWith('Throttle')).raw);
        return `${raw.windowStart}/${raw.throttledUntil}`;
      }),
    );
    expect(windows.size).toBe(1);
  });

  it('counts runs apart per subscriber and per value of the throttleKey', async () => {
    const name = await throttledWorkflow({ amount: 1, unit: 'hours', threshold: 1, throttleKey: 'payload.projectId' });
    const [ada, bob] = [uniqueName('ada'), uniqueName('bob')];
    for (const subscriberId of [ada, bob]) await t.api().post('/v2/subscribers').send({ subscriberId }).expect(201);
    await triggerAll(name, ada, [
      { n: 1, projectId: 'a' },
      { n: 2, projectId: 'a' },
      { n: 3, projectId: 'b' },
    ]);
    await triggerAll(name, bob, [{ n: 4, projectId: 'a' }]);
    await settled(ada, 3);
    await settled(bob, 1);
    const contents = (messages: any[]) => messages.map((m) => m.content).sort();
    expect(contents(await inAppMessages(ada))).toHaveLength(2);
    expect(contents(await inAppMessages(ada))).toContain('Run 3');
    expect(contents(await inAppMessages(bob))).toEqual(['Run 4']);
  });
});
