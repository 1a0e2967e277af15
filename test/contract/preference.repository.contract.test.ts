import { EnvironmentScope, newId } from '@app/kernel';
import { PreferenceRepository, Schedule } from '@app/subscribers';
import { REPOSITORY_STORES, openRepository } from '../support/sql-stores';
import { describeMongoContract } from '../support/mongo-store';

/** The PreferenceRepository contract; every store adapter must pass it. */
function preferenceRepositoryContract(open: () => Promise<{ repository: PreferenceRepository; close(): Promise<void> }>) {
  let repository: PreferenceRepository;
  let close: () => Promise<void>;
  beforeAll(async () => ({ repository, close } = await open()));
  afterAll(() => close());

  const organizationId = newId();
  const scope: EnvironmentScope = { organizationId, environmentId: newId() };
  const otherScope: EnvironmentScope = { organizationId, environmentId: newId() };
  const schedule: Schedule = { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } } };
  const t1 = new Date('2024-01-01T00:00:00Z');
  const t2 = new Date('2024-01-02T00:00:00Z');

  it('creates a record, then merges channel by channel', async () => {
    const subscriberId = newId();
    const created = await repository.upsert(scope, { subscriberId, workflowId: null, channels: { email: false }, at: t1 });
    expect(created).toEqual({
      organizationId,
      environmentId: scope.environmentId,
      subscriberId,
      workflowId: null,
      channels: { email: false },
      createdAt: t1,
      updatedAt: t1,
    });
    const merged = await repository.upsert(scope, { subscriberId, workflowId: null, channels: { sms: false, email: true }, at: t2 });
    expect(merged).toMatchObject({ channels: { email: true, sms: false }, createdAt: t1, updatedAt: t2 });
  });

  it('keeps the schedule unless a new one is given', async () => {
    const subscriberId = newId();
    await repository.upsert(scope, { subscriberId, workflowId: null, channels: {}, schedule, at: t1 });
    const after = await repository.upsert(scope, { subscriberId, workflowId: null, channels: { push: false }, at: t2 });
    expect(after.schedule).toEqual(schedule);
    const replaced = await repository.upsert(scope, { subscriberId, workflowId: null, channels: {}, schedule: { isEnabled: false }, at: t2 });
    expect(replaced.schedule).toEqual({ isEnabled: false });
  });

  it('keeps the enabled switch unless a new value is given; a record never switched has none', async () => {
    const subscriberId = newId();
    const workflowId = newId();
    const plain = await repository.upsert(scope, { subscriberId, workflowId, channels: { email: false }, at: t1 });
    expect(plain).not.toHaveProperty('enabled');
    expect(await repository.upsert(scope, { subscriberId, workflowId, channels: {}, enabled: false, at: t2 })).toMatchObject({
      enabled: false,
      channels: { email: false },
    });
    expect(await repository.upsert(scope, { subscriberId, workflowId, channels: { sms: true }, at: t2 })).toMatchObject({ enabled: false });
    const created = await repository.upsert(scope, { subscriberId, workflowId: null, channels: {}, enabled: true, at: t1 });
    expect(created).toMatchObject({ workflowId: null, enabled: true });
    const { global, workflow } = await repository.findForWorkflow(scope, subscriberId, workflowId);
    expect({ global: global?.enabled, workflow: workflow?.enabled }).toEqual({ global: true, workflow: false });
    expect((await repository.listForSubscriber(scope, subscriberId)).map((r) => r.enabled)).toEqual([true, false]);
  });

  it('merges concurrent writes of different channels without losing one', async () => {
    const subscriberId = newId();
    const workflowId = newId();
    await Promise.all(
      (['email', 'sms', 'push', 'chat', 'in_app'] as const).map((channel) =>
        repository.upsert(scope, { subscriberId, workflowId, channels: { [channel]: false }, at: t1 }),
      ),
    );
    const { workflow } = await repository.findForWorkflow(scope, subscriberId, workflowId);
    expect(workflow?.channels).toEqual({ email: false, sms: false, push: false, chat: false, in_app: false });
  });

  it('keeps one record per workflow plus the global one, and finds them for delivery', async () => {
    const subscriberId = newId();
    const [w1, w2] = [newId(), newId()];
    await repository.upsert(scope, { subscriberId, workflowId: null, channels: { email: false }, at: t1 });
    await repository.upsert(scope, { subscriberId, workflowId: w1, channels: { email: true }, at: t1 });
    await repository.upsert(scope, { subscriberId, workflowId: w2, channels: { sms: false }, at: t1 });
    expect((await repository.listForSubscriber(scope, subscriberId)).map((p) => p.workflowId).sort()).toEqual([null, w1, w2].sort());
    const found = await repository.findForWorkflow(scope, subscriberId, w1);
    expect(found.global?.channels).toEqual({ email: false });
    expect(found.workflow).toMatchObject({ workflowId: w1, channels: { email: true } });
    expect(await repository.findForWorkflow(scope, subscriberId, newId())).toMatchObject({ workflow: null });
    expect(await repository.findForWorkflow(scope, newId(), w1)).toEqual({ global: null, workflow: null });
  });

  it('removes channels from workflow records only', async () => {
    const subscriberId = newId();
    const [w1, w2] = [newId(), newId()];
    await repository.upsert(scope, { subscriberId, workflowId: null, channels: { email: false, sms: true }, at: t1 });
    await repository.upsert(scope, { subscriberId, workflowId: w1, channels: { email: true, sms: false, push: false }, at: t1 });
    await repository.upsert(scope, { subscriberId, workflowId: w2, channels: { email: true }, at: t1 });
    await repository.removeWorkflowChannels(scope, subscriberId, ['email', 'sms']);
    const records = await repository.listForSubscriber(scope, subscriberId);
    expect(records.find((r) => r.workflowId === null)?.channels).toEqual({ email: false, sms: true });
    expect(records.find((r) => r.workflowId === w1)?.channels).toEqual({ push: false });
    expect(records.find((r) => r.workflowId === w2)?.channels).toEqual({});
  });

  it('keeps environments and subscribers apart, and forgets a subscriber', async () => {
    const subscriberId = newId();
    await repository.upsert(scope, { subscriberId, workflowId: null, channels: { email: false }, at: t1 });
    await repository.upsert(otherScope, { subscriberId, workflowId: null, channels: { email: true }, at: t1 });
    expect((await repository.listForSubscriber(scope, subscriberId))[0].channels).toEqual({ email: false });
    expect((await repository.listForSubscriber(otherScope, subscriberId))[0].channels).toEqual({ email: true });
    await repository.removeWorkflowChannels(otherScope, subscriberId, ['email']);
    await repository.deleteForSubscriber(otherScope, subscriberId);
    expect(await repository.listForSubscriber(otherScope, subscriberId)).toEqual([]);
    expect(await repository.listForSubscriber(scope, subscriberId)).toHaveLength(1);
  });
}

describe.each(REPOSITORY_STORES)('PreferenceRepository on $name', (store) => {
  preferenceRepositoryContract(openRepository(store, (r) => r.preferences));
});

describeMongoContract('PreferenceRepository', (store) => preferenceRepositoryContract(openRepository(store, (r) => r.preferences)));
