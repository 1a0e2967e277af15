import { DeliveryEventRecord, ExecutionDetail, Job, Message, Notification, Suppression, TriggerRecord } from '@app/delivery';
import {
  deliveryEventDocuments,
  digestEventDocuments,
  executionDetailDocuments,
  jobDocuments,
  messageDocuments,
  notificationDocuments,
  suppressionDocuments,
  triggerDocuments,
} from './delivery-documents';

const at = new Date('2025-01-01T00:00:00.000Z');
const later = new Date('2025-01-02T00:00:00.000Z');
const scope = { organizationId: 'o1', environmentId: 'e1' };

/** The record back from its document, and from its document with every optional field stored as null (a NULL column). */
function roundTrips<T extends object>(
  mapper: { toDocument(r: T): Record<string, any>; toDomain(d: Record<string, any>): T },
  full: T,
  bare: T,
  optional: string[],
) {
  expect(mapper.toDomain(mapper.toDocument(full))).toEqual(full);
  const doc = mapper.toDocument(bare);
  for (const field of optional) expect(doc).not.toHaveProperty(field);
  expect(mapper.toDomain(doc)).toEqual(bare);
  expect(mapper.toDomain({ ...doc, ...Object.fromEntries(optional.map((field) => [field, null])) })).toEqual(bare);
}

describe('trigger documents', () => {
  const bare: TriggerRecord = {
    id: 't1',
    ...scope,
    transactionId: 'tx',
    workflowId: 'w1',
    workflowIdentifier: 'welcome',
    to: ['ada', { subscriberId: 'bob', 'x.y': 1 }, { type: 'Topic', topicKey: 'news' }],
    payload: { name: 'Ada', $price: 1 },
    overrides: {},
    status: 'accepted',
    createdAt: at,
    updatedAt: at,
  };
  const full: TriggerRecord = {
    ...bare,
    broadcast: true,
    actor: { subscriberId: 'carl' },
    tenant: 'acme',
    contextKeys: ['tenant:acme'],
    fanOutJobId: 'f1',
    timeOrderedIds: true,
  };

  it('round-trip every optional field, caller JSON escaped', () => {
    roundTrips(triggerDocuments, full, bare, ['broadcast', 'actor', 'tenant', 'contextKeys', 'fanOutJobId', 'timeOrderedIds']);
    expect(triggerDocuments.toDocument(full).payload).toEqual({ '%24price': 1, name: 'Ada' });
  });

  it('keep broadcast and timeOrderedIds only when true', () => {
    for (const field of ['broadcast', 'timeOrderedIds'] as const) {
      expect(triggerDocuments.toDocument({ ...bare, [field]: false as unknown as true })).not.toHaveProperty(field);
      expect(triggerDocuments.toDomain({ ...triggerDocuments.toDocument(bare), [field]: false })).not.toHaveProperty(field);
    }
  });
});

describe('notification documents', () => {
  const bare: Notification = {
    id: 'n1',
    ...scope,
    workflowId: 'w1',
    workflowIdentifier: 'welcome',
    subscriberId: 's1',
    externalSubscriberId: 'ada',
    transactionId: 'tx',
    to: { subscriberId: 'ada' },
    payload: { name: 'Ada' },
    channels: ['in_app', 'email'],
    tags: ['t'],
    critical: false,
    topics: [{ topicId: 'tp', topicKey: 'news' }],
    createdAt: at,
    updatedAt: at,
  };
  it('round-trip every optional field', () => {
    const full: Notification = {
      ...bare,
      controls: { a: 1 },
      severity: 'high',
      tenantIdentifier: 'acme',
      actorSubscriberId: 'carl',
      contextKeys: ['app:jira', 'tenant:acme'],
      digestedNotificationId: 'n0',
    };
    roundTrips(notificationDocuments, full, bare, ['controls', 'severity', 'tenantIdentifier', 'actorSubscriberId', 'contextKeys', 'digestedNotificationId']);
    // channels stay an array of strings: a list filter matches any of them
    expect(notificationDocuments.toDocument(bare).channels).toEqual(['in_app', 'email']);
  });
});

describe('job documents', () => {
  const bare: Job = {
    id: 'j1',
    ...scope,
    notificationId: 'n1',
    transactionId: 'tx',
    subscriberId: 's1',
    externalSubscriberId: 'ada',
    workflowId: 'w1',
    workflowIdentifier: 'welcome',
    stepId: 'step',
    type: 'digest',
    status: 'pending',
    payload: { a: 1 },
    overrides: {},
    attempts: 0,
    createdAt: at,
    updatedAt: at,
  };
  it('round-trip every optional field', () => {
    const full: Job = {
      ...bare,
      parentId: 'j0',
      providerId: 'sendgrid',
      tenant: { identifier: 'acme' },
      actorId: 'carl',
      contextKeys: ['tenant:acme'],
      digest: { amount: 5, unit: 'minutes', events: [{ 'a.b': 1 }] },
      digestBucketKey: 'bucket',
      mergedDigestId: 'j9',
      runAt: later,
      scheduleExtensionsCount: 2,
      error: { message: 'boom', code: 'x' },
      output: { 'user.name': 'Ada', list: [1] },
    };
    roundTrips(jobDocuments, full, bare, [
      'parentId',
      'providerId',
      'tenant',
      'actorId',
      'contextKeys',
      'digest',
      'digestBucketKey',
      'mergedDigestId',
      'runAt',
      'scheduleExtensionsCount',
      'error',
      'output',
    ]);
    expect(jobDocuments.toDocument(full).runAt).toBe(later);
  });
});

describe('message documents', () => {
  const bare: Message = {
    id: 'm1',
    ...scope,
    notificationId: 'n1',
    jobId: 'j1',
    subscriberId: 's1',
    workflowId: 'w1',
    templateIdentifier: 'welcome',
    transactionId: 'tx',
    channel: 'in_app',
    status: 'sent',
    content: 'Hi',
    read: false,
    seen: false,
    archived: false,
    deliveredAt: [at],
    payload: { name: 'Ada' },
    overrides: {},
    createdAt: at,
    updatedAt: at,
  };
  it('round-trip every optional field, content as text or blocks', () => {
    const full: Message = {
      ...bare,
      content: [{ type: 'text', content: 'Hi' }],
      stepId: 'st',
      providerId: 'novu',
      errorId: 'e',
      errorText: 'text',
      subject: 'S',
      title: 'T',
      cta: { type: 'redirect', data: { url: 'https://x' }, action: { status: 'pending', buttons: [{ type: 'primary', content: 'Go' }] } },
      avatar: 'https://a',
      actorSubscriberId: 'carl',
      actor: { type: 'user', data: null },
      data: { orderId: 'A-1', 'a.b': { $c: 1 } },
      lastSeenDate: later,
      lastReadDate: later,
      snoozedUntil: later,
      archivedAt: later,
      firstSeenDate: later,
      identifier: 'provider-id',
      deliveryState: 'delivered',
      deliveryStateAt: later,
      email: 'a@example.com',
      phone: '+1',
      deviceTokens: ['t'],
      directWebhookUrl: 'https://hook',
      tags: ['x'],
    };
    const optional = Object.keys(full).filter((key) => !(key in bare));
    roundTrips(messageDocuments, full, bare, optional);
    expect(messageDocuments.toDocument(full).deliveredAt).toEqual([at]);
  });

  it('read a document without flags or deliveries as unread, unseen, not archived, never delivered', () => {
    const { read: _r, seen: _s, archived: _a, deliveredAt: _d, ...doc } = messageDocuments.toDocument(bare);
    expect(messageDocuments.toDomain(doc)).toEqual({ ...bare, deliveredAt: [] });
  });
});

describe('execution detail, delivery event, suppression and digest event documents', () => {
  it('execution details keep a null raw as null, and their channel and provider only when set', () => {
    const bare: ExecutionDetail = {
      id: 'd1',
      ...scope,
      notificationId: 'n1',
      jobId: 'j1',
      subscriberId: 's1',
      transactionId: 'tx',
      status: 'Success',
      source: 'Internal',
      detail: 'Message sent',
      raw: null,
      isRetry: false,
      isTest: false,
      createdAt: at,
    };
    roundTrips(executionDetailDocuments, { ...bare, channel: 'email', providerId: 'sendgrid', raw: '{"a":1}' }, bare, ['channel', 'providerId', 'raw']);
  });

  it('delivery events round-trip', () => {
    const event: DeliveryEventRecord = {
      id: 'v1',
      ...scope,
      integrationId: 'i1',
      eventKey: 'k',
      messageId: 'm1',
      type: 'delivered',
      occurredAt: at,
      createdAt: later,
    };
    expect(deliveryEventDocuments.toDomain(deliveryEventDocuments.toDocument(event))).toEqual(event);
  });

  it('suppressions have no id of their own and keep the detail only when given', () => {
    const bare: Suppression = {
      ...scope,
      address: 'a@example.com',
      channel: 'email',
      reason: 'hard_bounce',
      providerId: 'sendgrid',
      messageId: 'm1',
      createdAt: at,
    };
    expect(suppressionDocuments.toDocument(bare)).not.toHaveProperty('_id');
    roundTrips(suppressionDocuments, { ...bare, detail: 'mailbox unknown' }, bare, ['detail']);
  });

  it('digest events keep the payload as caller JSON and the time as a date', () => {
    const event = { jobId: 'j1', notificationId: 'n1', payload: { 'a.b': 1 }, at };
    expect(digestEventDocuments.toDocument(event)).toEqual({ jobId: 'j1', notificationId: 'n1', payload: { 'a%2Eb': 1 }, at });
    expect(digestEventDocuments.toDomain(digestEventDocuments.toDocument(event))).toEqual(event);
    expect(digestEventDocuments.toDomain({ jobId: 'j1', notificationId: 'n1', at: at.toISOString() })).toEqual({ ...event, payload: {} });
  });
});
