import { GetPreferencesResponseDto$inboundSchema, GetSubscriberPreferencesDto$inboundSchema } from '@novu/api/models/components';
import { describeEachStore, startTestApp, TestApp } from '../support/test-app';

const step = (type: string) => ({ template: { type, content: 'hi', subject: 's' } });
const schedule = {
  isEnabled: true,
  weeklySchedule: {
    monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] },
    friday: { isEnabled: true, hours: [{ start: '10:00 PM', end: '06:00 AM' }] },
    sunday: { isEnabled: false },
  },
};

describeEachStore('subscriber preferences (%s)', (store) => {
  let t: TestApp;
  let alpha: { _id: string; triggers: { identifier: string }[] };
  let critical: { _id: string };

  beforeAll(async () => {
    t = await startTestApp({ store });
    const create = async (body: Record<string, unknown>) => (await t.api().post('/v1/workflows').send(body).expect(201)).body.data;
    alpha = await create({ name: 'Alpha', active: true, steps: [step('email'), step('in_app'), { ...step('push'), active: false }] });
    await create({ name: 'Beta', active: true, preferenceSettings: { sms: false }, steps: [step('sms')] });
    critical = await create({ name: 'Security alert', active: true, critical: true, steps: [step('email'), step('chat')] });
    await create({ name: 'Draft', steps: [step('push')] });
    await t.api().post('/v2/subscribers').send({ subscriberId: 'sub-1', firstName: 'Ada' }).expect(201);
    await t.api().post('/v2/subscribers').send({ subscriberId: 'sub-2' }).expect(201);
  });
  afterAll(() => t.close());

  const get = (subscriberId: string, query = '') => t.api().get(`/v2/subscribers/${subscriberId}/preferences${query}`);
  const patch = (subscriberId: string, body: Record<string, unknown>) => t.api().patch(`/v2/subscribers/${subscriberId}/preferences`).send(body);

  it('answers 404 for an unknown subscriber', async () => {
    const res = await get('nobody').expect(404);
    expect(res.body).toMatchObject({ statusCode: 404, message: 'Subscriber with id: nobody not found' });
    const patched = await patch('nobody', { channels: { email: false } }).expect(404);
    expect(patched.body.message).toBe('Subscriber with id: nobody not found');
  });

  it('lists the defaults: channels in use, active non-critical workflows, as the SDK expects', async () => {
    const res = await get('sub-1').expect(200);
    const { global, workflows } = res.body.data;
    expect(global).toEqual({ enabled: true, channels: { in_app: true, email: true, sms: true, chat: true } });
    expect(workflows.map((w: any) => w.workflow.identifier)).toEqual(['alpha', 'beta']);
    expect(workflows[0]).toEqual({
      enabled: true,
      channels: { email: true, in_app: true },
      overrides: [
        { channel: 'email', source: 'template' },
        { channel: 'in_app', source: 'template' },
      ],
      workflow: { slug: `alpha_wf_${alpha._id}`, identifier: 'alpha', name: 'Alpha', updatedAt: expect.any(String) },
    });
    expect(workflows[1].channels).toEqual({ sms: false });
    expect(() => GetSubscriberPreferencesDto$inboundSchema.parse(res.body.data)).not.toThrow();
  });

  it('filters by criticality', async () => {
    const critical = await get('sub-1', '?criticality=critical').expect(200);
    expect(critical.body.data.workflows.map((w: any) => w.workflow.identifier)).toEqual(['security-alert']);
    const all = await get('sub-1', '?criticality=all').expect(200);
    expect(all.body.data.workflows.map((w: any) => w.workflow.identifier)).toEqual(['alpha', 'beta', 'security-alert']);
    const bad = await get('sub-1', '?criticality=sometimes').expect(422);
    expect(Object.keys(bad.body.errors)).toEqual(['criticality']);
  });

  it('updates one workflow by identifier, _id or slug', async () => {
    const res = await patch('sub-1', { workflowId: 'alpha', channels: { email: false } }).expect(200);
    const alphaPrefs = res.body.data.workflows.find((w: any) => w.workflow.identifier === 'alpha');
    expect(alphaPrefs.channels).toEqual({ email: false, in_app: true });
    expect(alphaPrefs.overrides).toContainEqual({ channel: 'email', source: 'subscriber' });
    expect(typeof alphaPrefs.updatedAt).toBe('string');
    expect(res.body.data.global.channels.email).toBe(true);

    await patch('sub-1', { workflowId: alpha._id, channels: { in_app: false } }).expect(200);
    const bySlug = await patch('sub-1', { workflowId: `alpha_wf_${alpha._id}`, channels: { sms: false } }).expect(200);
    expect(bySlug.body.data.workflows[0].channels).toEqual({ email: false, in_app: false });
    // Another subscriber is untouched.
    const other = await get('sub-2').expect(200);
    expect(other.body.data.workflows[0].channels).toEqual({ email: true, in_app: true });
    expect(other.body.data.workflows[0]).not.toHaveProperty('updatedAt');
  });

  it('updates global channels, which clears the same channels per workflow', async () => {
    const res = await patch('sub-1', { channels: { email: true, sms: true, chat: false } }).expect(200);
    const { global, workflows } = res.body.data;
    expect(global.channels).toEqual({ in_app: true, email: true, sms: true, chat: false });
    const [a, b] = workflows;
    // email came back to the global value; in_app keeps its per-workflow choice.
    expect(a.channels).toEqual({ email: true, in_app: false });
    expect(a.overrides).toEqual([
      { channel: 'email', source: 'subscriber' },
      { channel: 'in_app', source: 'subscriber' },
    ]);
    // The subscriber's global choice wins over the workflow default.
    expect(b.channels).toEqual({ sms: true });
    const crit = await get('sub-1', '?criticality=critical').expect(200);
    expect(crit.body.data.workflows[0].channels).toEqual({ email: true, chat: true }); // critical ignores opt-outs
  });

  it('refuses critical and unknown workflows', async () => {
    const crit = await patch('sub-1', { workflowId: critical._id, channels: { email: false } }).expect(400);
    expect(crit.body.message).toBe(`Critical workflow with id: ${critical._id} can not be updated`);
    const unknown = await patch('sub-1', { workflowId: 'no-such-workflow', channels: { email: false } }).expect(404);
    expect(unknown.body).toMatchObject({ statusCode: 404, message: 'Workflow cannot be found', workflowId: 'no-such-workflow' });
  });

  it("bulk-updates several workflows' channels, checking every workflow before writing any", async () => {
    await t.api().post('/v2/subscribers').send({ subscriberId: 'bulk-1' }).expect(201);
    const bulk = (subscriberId: string, preferences: unknown) => t.api().patch(`/v2/subscribers/${subscriberId}/preferences/bulk`).send({ preferences });
    const res = await bulk('bulk-1', [
      { workflowId: alpha._id, channels: { email: false, in_app: true } },
      { workflowId: 'beta', channels: { sms: true } },
    ]).expect(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0]).toMatchObject({ level: 'template', channels: { email: false, in_app: true }, workflow: { id: alpha._id, identifier: 'alpha' } });
    expect(res.body.data[1]).toMatchObject({ channels: { sms: true }, workflow: { identifier: 'beta' } });
    for (const item of res.body.data) GetPreferencesResponseDto$inboundSchema.parse(item);
    const after = (await get('bulk-1').expect(200)).body.data.workflows;
    expect(after.map((w: any) => w.channels)).toEqual([{ email: false, in_app: true }, { sms: true }]);

    // An unknown or critical workflow anywhere in the list: nothing is written.
    const unknown = await bulk('bulk-1', [
      { workflowId: 'alpha', channels: { email: true } },
      { workflowId: 'ghost', channels: {} },
    ]).expect(404);
    expect(unknown.body.message).toBe('Workflows with ids: ghost not found');
    const crit = await bulk('bulk-1', [
      { workflowId: 'alpha', channels: { email: true } },
      { workflowId: critical._id, channels: { email: false } },
    ]).expect(400);
    expect(crit.body.message).toBe(`Critical workflows with ids: ${critical._id} cannot be updated`);
    expect((await get('bulk-1').expect(200)).body.data.workflows[0].channels.email).toBe(false);

    await bulk('nobody', [{ workflowId: 'alpha', channels: { email: false } }]).expect(404);
    await bulk('bulk-1', []).expect(400);
    const tooMany = await bulk(
      'bulk-1',
      Array.from({ length: 101 }, () => ({ workflowId: 'alpha', channels: { email: true } })),
    ).expect(422);
    expect(tooMany.body.message).toBe('Validation Error');
    await bulk('bulk-1', [{ channels: { email: true } }]).expect(422);
    await bulk('bulk-1', 'alpha').expect(422);
  });

  it('stores a validated schedule on the global preferences and keeps it across channel changes', async () => {
    const res = await patch('sub-2', { schedule }).expect(200);
    expect(res.body.data.global.schedule).toEqual(schedule);
    const after = await patch('sub-2', { channels: { push: false } }).expect(200);
    expect(after.body.data.global.schedule).toEqual(schedule);
    expect(after.body.data.global.channels.push).toBe(false);
    expect(() => GetSubscriberPreferencesDto$inboundSchema.parse(after.body.data)).not.toThrow();

    const badTime = await patch('sub-2', {
      schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '9am', end: '05:00 PM' }] } } },
    }).expect(422);
    expect(Object.keys(badTime.body.errors)).toEqual(['schedule.weeklySchedule.monday.hours.0.start']);
    const noFlag = await patch('sub-2', { schedule: { weeklySchedule: {} } }).expect(422);
    expect(Object.keys(noFlag.body.errors)).toEqual(['schedule.isEnabled']);
    await patch('sub-2', { workflowId: 'alpha', schedule }).expect(400);
    const badChannel = await patch('sub-2', { channels: { email: 'off' } }).expect(422);
    expect(Object.keys(badChannel.body.errors)).toEqual(['channels.email']);
    const arrays = await patch('sub-2', { channels: [{ email: false }], schedule: [schedule] }).expect(422);
    expect(Object.keys(arrays.body.errors).sort()).toEqual(['channels', 'schedule']);
    // Nothing changed by the refused requests.
    expect((await get('sub-2').expect(200)).body.data.global.schedule).toEqual(schedule);
  });

  it('keeps environments apart', async () => {
    const other = await t.createEnvironment('Prefs elsewhere');
    const api = t.api(other.apiKey);
    await api.get('/v2/subscribers/sub-1/preferences').expect(404);
    await api.post('/v2/subscribers').send({ subscriberId: 'sub-1' }).expect(201);
    const res = await api.get('/v2/subscribers/sub-1/preferences').expect(200);
    expect(res.body.data).toEqual({ global: { enabled: true, channels: {} }, workflows: [] });
    await api
      .patch('/v2/subscribers/sub-1/preferences')
      .send({ workflowId: 'alpha', channels: { email: false } })
      .expect(404);
    await api
      .patch('/v2/subscribers/sub-1/preferences')
      .send({ channels: { email: false } })
      .expect(200);
    // The first environment's sub-1 still has email on globally.
    expect((await get('sub-1').expect(200)).body.data.global.channels.email).toBe(true);
  });
});

describeEachStore('subscriber preferences survive a restart (%s)', (store) => {
  it('reads back what was written before the restart', async () => {
    const first = await startTestApp({ store });
    await first
      .api()
      .post('/v1/workflows')
      .send({ name: 'Kept', active: true, steps: [step('email')] })
      .expect(201);
    await first.api().post('/v2/subscribers').send({ subscriberId: 'keeper' }).expect(201);
    await first
      .api()
      .patch('/v2/subscribers/keeper/preferences')
      .send({ workflowId: 'kept', channels: { email: false } })
      .expect(200);
    const written = await first.api().patch('/v2/subscribers/keeper/preferences').send({ schedule }).expect(200);
    await first.close();
    const { dataDir, sqlSchema, apiKey } = first.options;
    const second = await startTestApp({ store, dataDir, sqlSchema, apiKey });
    try {
      const res = await second.api().get('/v2/subscribers/keeper/preferences').expect(200);
      expect(res.body.data).toEqual(written.body.data);
      expect(res.body.data.workflows[0].channels).toEqual({ email: false });
    } finally {
      await second.close();
    }
  });
});
