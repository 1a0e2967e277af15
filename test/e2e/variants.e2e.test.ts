import { describeEachStore, startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const SETTLED = ['completed', 'failed', 'canceled', 'merged', 'skipped'];

/**
 * Step variants end to end in the embedded mode: the first active variant whose filters pass
 * (by subscriber, by payload) is what the subscriber receives, named in the job's execution
 * details; no variant passing sends the step's own content.
 */
describeEachStore('step variants (%s)', (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ store });
  });
  afterAll(async () => {
    await t.close();
  });

  const group = (on: string, field: string, value: string) => [
    { isNegated: false, type: 'GROUP', value: 'AND', children: [{ on, field, operator: 'EQUAL', value }] },
  ];

  async function workflow() {
    const identifier = uniqueName('variants').toLowerCase();
    const res = await t
      .api()
      .post('/v1/workflows')
      .send({
        name: identifier,
        identifier,
        active: true,
        steps: [
          {
            name: 'greeting',
            template: { type: 'in_app', content: 'Hello {{subscriber.firstName}}' },
            variants: [
              {
                name: 'vip',
                active: true,
                template: { type: 'in_app', content: 'Welcome back, VIP {{subscriber.firstName}}' },
                filters: group('subscriber', 'data.tier', 'vip'),
              },
              { name: 'inactive', active: false, template: { type: 'in_app', content: 'never sent' }, filters: group('payload', 'plan', 'pro') },
              {
                name: 'pro plan',
                active: true,
                template: { type: 'in_app', content: 'Your pro plan {{payload.plan}} is ready' },
                filters: group('payload', 'plan', 'pro'),
              },
            ],
          },
        ],
      });
    expect(res.status).toBe(201);
    return { identifier, variants: res.body.data.steps[0].variants as { _id: string; name: string }[] };
  }

  async function subscriber(data: Record<string, string> = {}) {
    const subscriberId = uniqueName('sub');
    const res = await t.api().post('/v2/subscribers').send({ subscriberId, firstName: 'Ada', data });
    expect(res.status).toBe(201);
    return subscriberId;
  }

  /** Triggers, waits for the job to settle, and answers the message's content and the job's details. */
  async function deliver(identifier: string, subscriberId: string, payload: Record<string, unknown>) {
    const trigger = await t.api().post('/v1/events/trigger').send({ name: identifier, to: subscriberId, payload });
    expect(trigger.status).toBe(201);
    const { transactionId } = trigger.body.data;
    const [notification] = await waitFor(async () => {
      const res = await t.api().get('/v1/notifications').query({ transactionId });
      const list = res.body.data as any[];
      return list.length > 0 && list.every((n) => n.jobs.length > 0 && n.jobs.every((j: any) => SETTLED.includes(j.status))) && list;
    });
    const messages = await t.api().get('/v1/messages').query({ transactionId });
    expect(messages.status).toBe(200);
    const job = notification.jobs[0];
    return { status: job.status, contents: (messages.body.data as any[]).map((m) => m.content), details: job.executionDetails as any[] };
  }

  it('selects a variant by subscriber: the variant is sent and named in the execution details', async () => {
    const { identifier, variants } = await workflow();
    const vip = await subscriber({ tier: 'vip' });
    const sent = await deliver(identifier, vip, { plan: 'pro' });
    expect(sent.status).toBe('completed');
    // the VIP variant comes first, so it wins over the matching pro-plan variant
    expect(sent.contents).toEqual(['Welcome back, VIP Ada']);
    const selected = sent.details.find((d) => d.detail === 'Step variant selected');
    expect(JSON.parse(selected.raw)).toMatchObject({ variantId: variants[0]._id, name: 'vip' });
  });

  it('selects a variant by payload, skipping an inactive one; no variant matching sends the step itself', async () => {
    const { identifier, variants } = await workflow();
    const regular = await subscriber({ tier: 'regular' });
    const pro = await deliver(identifier, regular, { plan: 'pro' });
    expect(pro.contents).toEqual(['Your pro plan pro is ready']);
    expect(JSON.parse(pro.details.find((d) => d.detail === 'Step variant selected').raw)).toMatchObject({ variantId: variants[2]._id, name: 'pro plan' });

    const free = await deliver(identifier, regular, { plan: 'free' });
    expect(free.status).toBe('completed');
    expect(free.contents).toEqual(['Hello Ada']);
    expect(free.details.map((d) => d.detail)).not.toContain('Step variant selected');
  });
});
