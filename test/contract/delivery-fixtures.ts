import { EnvironmentScope, deterministicId, newId } from '@app/kernel';
import { ExecutionDetail, Job, Message, Notification, TriggerRecord } from '@app/delivery';

/** Builders of delivery records for the delivery contract suites. */
export const newScope = (): EnvironmentScope => ({ organizationId: newId(), environmentId: newId() });

let clock = Date.parse('2025-01-01T00:00:00Z');
/** Distinct, increasing times (the stores keep millisecond precision). */
export const tick = (ms = 1000) => new Date((clock += ms));

export function triggerRecord(scope: EnvironmentScope, overrides: Partial<TriggerRecord> = {}): TriggerRecord {
  const now = tick();
  return {
    id: newId(now.getTime()),
    ...scope,
    transactionId: newId(),
    workflowId: newId(),
    workflowIdentifier: 'welcome',
    to: ['subscriber-1', { subscriberId: 'subscriber-2', email: 'b@example.com' }, { type: 'Topic', topicKey: 'news' }],
    payload: { name: 'Ada', nested: { list: [1, 2] } },
    overrides: {},
    status: 'accepted',
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

export function notification(scope: EnvironmentScope, overrides: Partial<Notification> = {}): Notification {
  const now = tick();
  const transactionId = overrides.transactionId ?? newId();
  const subscriberId = overrides.subscriberId ?? newId();
  return {
    id: deterministicId('notification', transactionId, subscriberId),
    ...scope,
    workflowId: newId(),
    workflowIdentifier: 'welcome',
    subscriberId,
    externalSubscriberId: 'subscriber-1',
    transactionId,
    to: { subscriberId: 'subscriber-1' },
    payload: { name: 'Ada' },
    channels: ['in_app', 'chat'],
    tags: [],
    critical: false,
    topics: [],
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

export function job(n: Notification, stepId: string, overrides: Partial<Job> = {}): Job {
  return {
    id: deterministicId('job', n.id, stepId),
    organizationId: n.organizationId,
    environmentId: n.environmentId,
    notificationId: n.id,
    transactionId: n.transactionId,
    subscriberId: n.subscriberId,
    externalSubscriberId: n.externalSubscriberId,
    workflowId: n.workflowId,
    workflowIdentifier: n.workflowIdentifier,
    stepId,
    type: 'in_app',
    status: 'pending',
    payload: n.payload,
    overrides: {},
    attempts: 0,
    createdAt: n.createdAt,
    updatedAt: n.createdAt,
    ...overrides,
  };
}

/** A chain of jobs (each the parent of the next), all created at the same instant as fan-out does. */
export function jobChain(n: Notification, types: Job['type'][]): Job[] {
  const jobs: Job[] = [];
  types.forEach((type, index) => {
    jobs.push(job(n, `step-${index}`, { type, ...(index > 0 ? { parentId: jobs[index - 1].id } : {}) }));
  });
  return jobs;
}

export function executionDetail(j: Job, overrides: Partial<ExecutionDetail> = {}): ExecutionDetail {
  const now = tick();
  return {
    id: newId(now.getTime()),
    organizationId: j.organizationId,
    environmentId: j.environmentId,
    notificationId: j.notificationId,
    jobId: j.id,
    subscriberId: j.subscriberId,
    transactionId: j.transactionId,
    channel: j.type,
    status: 'Success',
    source: 'Internal',
    detail: 'Message created',
    raw: null,
    isRetry: false,
    isTest: false,
    createdAt: now,
    ...overrides,
  };
}

export function message(j: Job, overrides: Partial<Message> = {}): Message {
  const now = tick();
  return {
    id: j.id,
    organizationId: j.organizationId,
    environmentId: j.environmentId,
    notificationId: j.notificationId,
    jobId: j.id,
    subscriberId: j.subscriberId,
    workflowId: j.workflowId,
    templateIdentifier: j.workflowIdentifier,
    stepId: j.stepId,
    transactionId: j.transactionId,
    channel: 'in_app',
    status: 'sent',
    content: 'Hello Ada',
    read: false,
    seen: false,
    archived: false,
    deliveredAt: [],
    payload: j.payload,
    overrides: {},
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}
