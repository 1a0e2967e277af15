import { UnprocessableEntityException } from '@nestjs/common';
import { ActivityNotificationResponseDto$inboundSchema } from '@novu/api/models/components';
import { ExecutionDetail, Job, Notification, NotificationActivity } from '@app/delivery';
import { Subscriber } from '@app/subscribers';
import { Workflow, WorkflowStep } from '@app/workflows';
import { createValidationPipe } from '../http/validation';
import { ListNotificationsQueryDto } from './notification.dto';
import { toActivityNotificationResponse, toActivityNotificationsResponse } from './notification.mapper';

const at = new Date('2025-01-02T03:04:05.000Z');
const ISO = '2025-01-02T03:04:05.000Z';

function step(id: string, type: 'in_app' | 'digest', overrides: Partial<WorkflowStep> = {}): WorkflowStep {
  return {
    id,
    uuid: `uuid-${id}`,
    name: `${type} step`,
    active: true,
    shouldStopOnFail: false,
    template: { id: `tpl-${id}`, type, content: type === 'in_app' ? 'Hello {{payload.name}}' : undefined },
    filters: [],
    variants: [],
    ...overrides,
  };
}

const workflow: Workflow = {
  id: 'wf1',
  organizationId: 'org1',
  environmentId: 'env1',
  creatorId: 'key1',
  name: 'Welcome',
  description: '',
  active: true,
  draft: false,
  critical: false,
  preferenceSettings: { in_app: true, email: true, sms: true, chat: true, push: true },
  tags: ['onboarding'],
  steps: [
    step('s-digest', 'digest', { metadata: { type: 'regular', amount: 5, unit: 'minutes' } }),
    step('s-inapp', 'in_app', {
      // stored without isNegated/type, as Novu's older payloads do
      filters: [{ value: 'AND', children: [{ field: 'plan', value: 'pro', operator: 'EQUAL', on: 'payload' }] }],
      variants: [{ ...step('s-variant', 'in_app'), variants: undefined } as unknown as WorkflowStep],
    }),
  ],
  trigger: { identifier: 'welcome', variables: ['name'], subscriberVariables: ['firstName'] },
  notificationGroupId: 'group1',
  createdAt: at,
  updatedAt: at,
  revision: 1,
};

const notification: Notification = {
  id: '65a0000000000000000000aa',
  organizationId: 'org1',
  environmentId: 'env1',
  workflowId: 'wf1',
  workflowIdentifier: 'welcome',
  subscriberId: 'sub-internal',
  externalSubscriberId: 'user-1',
  transactionId: 'txn-1',
  to: { subscriberId: 'user-1' },
  payload: { name: 'Ada' },
  channels: ['digest', 'in_app'],
  tags: ['onboarding'],
  critical: false,
  topics: [{ topicId: 'topic1', topicKey: 'news' }],
  createdAt: at,
  updatedAt: at,
};

function job(id: string, stepId: string, type: Job['type'], overrides: Partial<Job> = {}): Job {
  return {
    id,
    organizationId: 'org1',
    environmentId: 'env1',
    notificationId: notification.id,
    transactionId: 'txn-1',
    subscriberId: 'sub-internal',
    externalSubscriberId: 'user-1',
    workflowId: 'wf1',
    workflowIdentifier: 'welcome',
    stepId,
    type,
    status: 'completed',
    payload: { name: 'Ada' },
    overrides: {},
    attempts: 1,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

function detail(jobId: string, overrides: Partial<ExecutionDetail> = {}): ExecutionDetail {
  return {
    id: `detail-${jobId}`,
    organizationId: 'org1',
    environmentId: 'env1',
    notificationId: notification.id,
    jobId,
    subscriberId: 'sub-internal',
    transactionId: 'txn-1',
    status: 'Success',
    source: 'Internal',
    detail: 'Message sent',
    raw: null,
    isRetry: false,
    isTest: false,
    createdAt: at,
    ...overrides,
  };
}

const subscriber: Subscriber = {
  id: 'sub-internal',
  organizationId: 'org1',
  environmentId: 'env1',
  subscriberId: 'user-1',
  firstName: 'Ada',
  email: 'ada@example.com',
  locale: 'en',
  channels: [],
  createdAt: at,
  updatedAt: at,
};

const digestJob = job('job-digest', 's-digest', 'digest', {
  digest: { type: 'regular', amount: 5, unit: 'minutes', digestKey: 'payload.postId', events: [{ name: 'Ada' }, { name: 'Bob' }] },
});
const inAppJob = job('job-inapp', 's-inapp', 'in_app', { providerId: 'novu', parentId: 'job-digest', scheduleExtensionsCount: 1 });

const activity: NotificationActivity = {
  notification,
  subscriber,
  workflow,
  jobs: [
    { job: digestJob, executionDetails: [detail('job-digest', { detail: 'Step digested', status: 'Pending' })] },
    { job: inAppJob, executionDetails: [detail('job-inapp', { providerId: 'novu', raw: '{"id":"m1"}' })] },
  ],
};

const hasNull = (value: unknown, path = ''): string[] =>
  value === null ? [path] : typeof value === 'object' && value ? Object.entries(value).flatMap(([key, v]) => hasNull(v, `${path}.${key}`)) : [];

describe('notification activity mapping', () => {
  it('maps a notification with its jobs, steps, digest and execution details', () => {
    const response = toActivityNotificationResponse(activity);
    expect(response).toMatchObject({
      _id: notification.id,
      _environmentId: 'env1',
      _organizationId: 'org1',
      _subscriberId: 'sub-internal',
      transactionId: 'txn-1',
      _templateId: 'wf1',
      createdAt: ISO,
      updatedAt: ISO,
      channels: ['digest', 'in_app'],
      subscriber: { _id: 'sub-internal', subscriberId: 'user-1', firstName: 'Ada', email: 'ada@example.com' },
      template: {
        _id: 'wf1',
        name: 'Welcome',
        origin: 'novu-cloud-v1',
        triggers: [{ type: 'event', identifier: 'welcome', variables: [{ name: 'name' }], subscriberVariables: [{ name: 'firstName' }] }],
      },
      payload: { name: 'Ada' },
      tags: ['onboarding'],
      to: { subscriberId: 'user-1' },
      topics: [{ _topicId: 'topic1', topicKey: 'news' }],
      critical: false,
    });
    expect(response.subscriber).not.toHaveProperty('locale');
    const [digest, inApp] = response.jobs;
    expect(digest).toMatchObject({
      _id: 'job-digest',
      type: 'digest',
      status: 'completed',
      providerId: 'novu',
      updatedAt: ISO,
      digest: { type: 'regular', amount: 5, unit: 'minutes', digestKey: 'payload.postId', events: [{ name: 'Ada' }, { name: 'Bob' }] },
      step: {
        _id: 's-digest',
        _templateId: 'tpl-s-digest',
        active: true,
        name: 'digest step',
        filters: [],
        metadata: { type: 'regular', amount: 5, unit: 'minutes' },
        variants: [],
      },
      executionDetails: [
        { _id: 'detail-job-digest', createdAt: ISO, status: 'Pending', detail: 'Step digested', isRetry: false, isTest: false, raw: null, source: 'Internal' },
      ],
    });
    expect(digest.step).not.toHaveProperty('_parentId');
    expect(digest.executionDetails[0]).not.toHaveProperty('providerId');
    expect(inApp).toMatchObject({
      scheduleExtensionsCount: 1,
      step: {
        _id: 's-inapp',
        _parentId: 's-digest',
        template: { _id: 'tpl-s-inapp', type: 'in_app', content: 'Hello {{payload.name}}' },
        filters: [{ isNegated: false, type: 'GROUP', value: 'AND', children: [{ field: 'plan', value: 'pro', operator: 'EQUAL', on: 'payload' }] }],
        variants: [{ _id: 's-variant', _templateId: 'tpl-s-variant', active: true, filters: [] }],
      },
      executionDetails: [{ providerId: 'novu', raw: '{"id":"m1"}' }],
    });
    expect(inApp).not.toHaveProperty('digest');
    // only the nullable `raw` may be null
    expect(hasNull(response)).toEqual(['.jobs.0.executionDetails.0.raw']);
  });

  it('is parsed by the Novu SDK schema', () => {
    const parsed = ActivityNotificationResponseDto$inboundSchema.parse(toActivityNotificationResponse(activity));
    expect(parsed.jobs).toHaveLength(2);
    expect(parsed.jobs?.[1].step.filters[0].children[0].operator).toBe('EQUAL');
    expect(parsed.template?.origin).toBe('novu-cloud-v1');
  });

  it('stands in for a deleted workflow, step and subscriber', () => {
    const orphanJob = job('job-orphan', 'gone-step', 'email', { status: 'failed' });
    const response = toActivityNotificationResponse({
      notification: { ...notification, digestedNotificationId: 'other', severity: 'high', controls: { a: 1 } },
      jobs: [{ job: orphanJob, executionDetails: [] }],
    });
    expect(response.subscriber).toEqual({ _id: 'sub-internal', subscriberId: 'user-1' });
    expect(response.template).toEqual({
      _id: 'wf1',
      name: 'welcome',
      origin: 'novu-cloud-v1',
      triggers: [{ type: 'event', identifier: 'welcome', variables: [], subscriberVariables: [] }],
    });
    expect(response.jobs[0]).toEqual({
      _id: 'job-orphan',
      type: 'email',
      status: 'failed',
      providerId: 'novu',
      payload: { name: 'Ada' },
      overrides: {},
      updatedAt: ISO,
      step: { _id: 'gone-step', _templateId: 'wf1', active: true, filters: [] },
      executionDetails: [],
    });
    expect(response).toMatchObject({ _digestedNotificationId: 'other', severity: 'high', controls: { a: 1 } });
    expect(hasNull(response)).toEqual([]);
    expect(ActivityNotificationResponseDto$inboundSchema.parse(response).jobs?.[0].step.id).toBe('gone-step');
  });

  it('maps a timed digest and leaves an unknown severity out', () => {
    const timedJob = job('job-timed', 's-digest', 'digest', { digest: { type: 'timed', timed: { atTime: '09:00', weekDays: ['monday'], monthDays: ['1'] } } });
    const cronJob = job('job-cron', 's-digest', 'digest', { digest: { cron: '0 9 * * *' } });
    const response = toActivityNotificationResponse({
      notification: { ...notification, severity: 'urgent' },
      workflow,
      jobs: [
        { job: timedJob, executionDetails: [] },
        { job: cronJob, executionDetails: [] },
      ],
    });
    expect(response.jobs[0].digest).toEqual({ type: 'timed', timed: { atTime: '09:00', weekDays: ['monday'], monthDays: [1] } });
    expect(response.jobs[1].digest).toEqual({ type: 'regular', timed: { cronExpression: '0 9 * * *' } });
    expect(response).not.toHaveProperty('severity');
    ActivityNotificationResponseDto$inboundSchema.parse(response);
  });

  it('pages the activity feed with hasMore', () => {
    const page = toActivityNotificationsResponse({ items: [activity], totalCount: 3 }, { page: 1, limit: 1 });
    expect(page).toMatchObject({ totalCount: 3, hasMore: true, pageSize: 1, page: 1 });
    expect(page.data).toHaveLength(1);
    expect(toActivityNotificationsResponse({ items: [activity], totalCount: 3 }, { page: 2, limit: 1 }).hasMore).toBe(false);
    expect(toActivityNotificationsResponse({ items: [], totalCount: 0 }, { page: 0, limit: 10 })).toEqual({
      data: [],
      totalCount: 0,
      hasMore: false,
      pageSize: 10,
      page: 0,
    });
  });
});

describe('activity feed query', () => {
  const list = (query: Record<string, unknown>) =>
    createValidationPipe().transform(query, { type: 'query', metatype: ListNotificationsQueryDto }) as Promise<ListNotificationsQueryDto>;

  it('defaults page 0 and limit 10 and caps limit at 100', async () => {
    expect(await list({})).toMatchObject({ page: 0, limit: 10 });
    expect(await list({ limit: '100', page: '3', transactionId: 't', subscriberId: 's' })).toMatchObject({
      limit: 100,
      page: 3,
      transactionId: 't',
      subscriberId: 's',
    });
    const error = await list({ limit: '101' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnprocessableEntityException);
  });
});
