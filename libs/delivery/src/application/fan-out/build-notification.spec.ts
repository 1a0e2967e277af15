import { deterministicId } from '@app/kernel';
import { Subscriber } from '@app/subscribers';
import { Workflow } from '@app/workflows';
import { triggerRecord } from '../../../../../test/contract/delivery-fixtures';
import { buildNotification } from './build-notification';

const scope = { organizationId: 'org', environmentId: 'env' };
const acceptedAt = new Date('2030-01-01T00:00:00.500Z');
const trigger = triggerRecord(scope, { transactionId: 'txn-1', createdAt: acceptedAt, updatedAt: acceptedAt });
const workflow = {
  id: 'wf-1',
  ...scope,
  trigger: { identifier: 'welcome' },
  tags: [],
  critical: false,
  steps: ['in_app', 'email'].map((type, index) => ({ id: `step-${index + 1}`, active: true, template: { type } })),
} as unknown as Workflow;
const ada = { id: 'sub-ada', ...scope, subscriberId: 'ada', channels: [] } as unknown as Subscriber;

describe('buildNotification', () => {
  it('derives ids that start with the acceptance second, the same on every run (a redelivered fan-out inserts nothing new)', () => {
    const marked = { ...trigger, timeOrderedIds: true as const };
    const first = buildNotification(scope, ada, { trigger: marked, workflow, now: new Date('2030-01-01T00:05:00Z') });
    const again = buildNotification(scope, ada, { trigger: marked, workflow, now: new Date('2030-01-01T00:09:00Z') });
    const second = (Date.parse('2030-01-01T00:00:00Z') / 1000).toString(16);
    expect([first.notification.id, ...first.jobs.map((job) => job.id)].every((id) => id.startsWith(second))).toBe(true);
    expect(again.notification.id).toBe(first.notification.id);
    expect(again.jobs.map((job) => job.id)).toEqual(first.jobs.map((job) => job.id));
    expect(new Set([first.notification.id, ...first.jobs.map((job) => job.id)]).size).toBe(3);
    expect(first.jobs[1].parentId).toBe(first.jobs[0].id);
  });

  it('keeps the hash-only ids for a trigger an earlier version accepted, whose fan-out may have begun under them', () => {
    const { notification, jobs } = buildNotification(scope, ada, { trigger, workflow, now: new Date() });
    expect(notification.id).toBe(deterministicId('env', 'txn-1', 'sub-ada'));
    expect(jobs.map((job) => job.id)).toEqual([deterministicId(notification.id, 'step-1'), deterministicId(notification.id, 'step-2')]);
  });
});
