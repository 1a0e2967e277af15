import {
  CHAIN_REPOSITORY,
  ChainRepository,
  EXECUTION_DETAIL_REPOSITORY,
  ExecutionDetailRepository,
  JOB_REPOSITORY,
  JobRepository,
  JobStatus,
  MESSAGE_REPOSITORY,
  MessageRepository,
  NOTIFICATION_REPOSITORY,
  NewChain,
  NotificationRepository,
  TRIGGER_REPOSITORY,
  TriggerRecord,
  TriggerRepository,
  TriggerStatus,
} from '@app/delivery';
import { RetentionScheduler } from '@app/bootstrap';
import { EnvironmentScope } from '@app/kernel';
import { executionDetail, jobChain, message, notification, triggerRecord } from '../contract/delivery-fixtures';
import { TestApp, startTestApp, uniqueName } from '../support/test-app';

const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

/**
 * RETENTION_DAYS end to end, in each mode: records written through the repositories with old
 * createdAt values, one purge by the workers' RetentionScheduler, and what is left seen through
 * the repositories and the API.
 */
describe.each([
  ['embedded mode (PGlite, queue in the store)', { store: 'pglite' as const, redis: false }],
  ['production mode (PostgreSQL, Redis)', { store: 'postgres' as const, redis: true }],
])('retention — %s', (_, mode) => {
  let t: TestApp;
  let scope: EnvironmentScope;
  beforeAll(async () => {
    t = await startTestApp({ ...mode, env: { RETENTION_DAYS: '30' } });
    // the Development environment of the API key, as its records carry it
    const identifier = uniqueName('scope').toLowerCase();
    const { body } = await t.api().post('/v1/workflows').send({ name: identifier, identifier, active: true, steps: [] }).expect(201);
    scope = { organizationId: body.data._organizationId, environmentId: body.data._environmentId };
  });
  afterAll(() => t?.close());

  /** A notification created at `at` whose chain of jobs is in these statuses, with the first job's message and detail. */
  const records = (at: Date, statuses: JobStatus[]): NewChain => {
    const n = notification(scope, { createdAt: at, updatedAt: at });
    // a delayed job is due far ahead, so the workers' recovery leaves it be
    const chain = jobChain(
      n,
      statuses.map(() => 'in_app'),
    ).map((j, index) => ({
      ...j,
      status: statuses[index],
      ...(statuses[index] === 'delayed' ? { runAt: daysAgo(-30) } : {}),
    }));
    return {
      kind: 'new',
      notification: n,
      jobs: chain,
      messages: [message(chain[0], { createdAt: at, updatedAt: at })],
      details: [executionDetail(chain[0], { createdAt: at })],
    };
  };
  const trigger = (at: Date, status: TriggerStatus): TriggerRecord => triggerRecord(scope, { status, createdAt: at, updatedAt: at });

  it('deletes the records older than RETENTION_DAYS and only those, keeping a notification whose chain is still under way', async () => {
    const notifications = t.app.get<NotificationRepository>(NOTIFICATION_REPOSITORY);
    const jobs = t.app.get<JobRepository>(JOB_REPOSITORY);
    const messages = t.app.get<MessageRepository>(MESSAGE_REPOSITORY);
    const details = t.app.get<ExecutionDetailRepository>(EXECUTION_DETAIL_REPOSITORY);
    const triggers = t.app.get<TriggerRepository>(TRIGGER_REPOSITORY);

    const expired = records(daysAgo(40), ['completed', 'failed']);
    const underWay = records(daysAgo(40), ['completed', 'delayed']);
    const recent = records(daysAgo(29), ['completed', 'completed']);
    expect((await t.app.get<ChainRepository>(CHAIN_REPOSITORY).write([expired, underWay, recent])).map((r) => r.written)).toEqual([true, true, true]);
    const oldProcessed = trigger(daysAgo(40), 'processed');
    // not fanned out yet (the reconciler's business): kept whatever its age
    const oldAccepted = trigger(daysAgo(40), 'accepted');
    const recentProcessed = trigger(daysAgo(29), 'processed');
    for (const r of [oldProcessed, oldAccepted, recentProcessed]) expect(await triggers.insertIfAbsent(r)).toBe(true);

    const counts = await t.app.get(RetentionScheduler).run();
    expect(counts).toEqual({ executionDetails: 1, messages: 1, jobs: 2, notifications: 1, triggers: 1, deliveryEvents: 0, throttleWindows: 0 });

    const left = async (r: NewChain) => ({
      notification: (await notifications.findById(scope, r.notification.id)) !== null,
      jobs: (await jobs.findByNotificationIds(scope, [r.notification.id])).length,
      messages: (await messages.findByJobId(r.jobs[0].id)).length,
      details: (await details.listByJobIds(scope, [r.jobs[0].id])).length,
    });
    expect(await left(expired)).toEqual({ notification: false, jobs: 0, messages: 0, details: 0 });
    expect(await left(underWay)).toEqual({ notification: true, jobs: 2, messages: 1, details: 1 });
    expect(await left(recent)).toEqual({ notification: true, jobs: 2, messages: 1, details: 1 });
    expect(await triggers.findById(oldProcessed.id)).toBeNull();
    expect(await triggers.findById(oldAccepted.id)).not.toBeNull();
    expect(await triggers.findById(recentProcessed.id)).not.toBeNull();

    // the API sees the same
    await t.api().get(`/v1/notifications/${expired.notification.id}`).expect(404);
    const kept = await t.api().get(`/v1/notifications/${underWay.notification.id}`).expect(200);
    expect(kept.body.data.jobs).toHaveLength(2);

    // a second purge finds nothing more
    expect(await t.app.get(RetentionScheduler).run()).toEqual({
      executionDetails: 0,
      messages: 0,
      jobs: 0,
      notifications: 0,
      triggers: 0,
      deliveryEvents: 0,
      throttleWindows: 0,
    });
  });
});

describe('retention off (RETENTION_DAYS=0)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RETENTION_DAYS: '0' } });
  });
  afterAll(() => t?.close());

  it('keeps records of any age', async () => {
    const identifier = uniqueName('scope').toLowerCase();
    const { body } = await t.api().post('/v1/workflows').send({ name: identifier, identifier, active: true, steps: [] }).expect(201);
    const scope = { organizationId: body.data._organizationId, environmentId: body.data._environmentId };
    const ancient = triggerRecord(scope, { status: 'processed', createdAt: daysAgo(3650), updatedAt: daysAgo(3650) });
    const triggers = t.app.get<TriggerRepository>(TRIGGER_REPOSITORY);
    await triggers.insertIfAbsent(ancient);
    expect(await t.app.get(RetentionScheduler).run()).toEqual({
      executionDetails: 0,
      messages: 0,
      jobs: 0,
      notifications: 0,
      triggers: 0,
      deliveryEvents: 0,
      throttleWindows: 0,
    });
    expect(await triggers.findById(ancient.id)).not.toBeNull();
  });
});
