import { DeliveryEventRecord, DigestEvent, ExecutionDetail, Job, Message, Notification, Suppression, TriggerRecord } from '@app/delivery';
import { Doc, DocumentMapper } from '../mongo-documents';
import { fromStoredJson, toStoredJson } from '../mongo-json';

const triggers = new DocumentMapper<TriggerRecord>({
  fields: [
    'organizationId',
    'environmentId',
    'transactionId',
    'workflowId',
    'workflowIdentifier',
    'to',
    'broadcast',
    'payload',
    'overrides',
    'actor',
    'tenant',
    'contextKeys',
    'status',
    'fanOutJobId',
    'timeOrderedIds',
    'createdAt',
    'updatedAt',
  ],
  json: ['to', 'payload', 'overrides', 'actor', 'tenant'],
});

/** A trigger's document; `broadcast` and `timeOrderedIds` are there only when true, as the SQL adapter reads them back. */
export const triggerDocuments = {
  toDocument: (trigger: TriggerRecord): Doc =>
    triggers.toDocument({ ...trigger, broadcast: trigger.broadcast || undefined, timeOrderedIds: trigger.timeOrderedIds || undefined }),
  toDomain(doc: Doc): TriggerRecord {
    const trigger = triggers.toDomain(doc);
    if (trigger.broadcast !== true) delete trigger.broadcast;
    if (trigger.timeOrderedIds !== true) delete trigger.timeOrderedIds;
    return trigger;
  },
};

export const notificationDocuments = new DocumentMapper<Notification>({
  fields: [
    'organizationId',
    'environmentId',
    'workflowId',
    'workflowIdentifier',
    'subscriberId',
    'externalSubscriberId',
    'transactionId',
    'to',
    'payload',
    'controls',
    'channels',
    'tags',
    'severity',
    'critical',
    'topics',
    'tenantIdentifier',
    'actorSubscriberId',
    'contextKeys',
    'digestedNotificationId',
    'createdAt',
    'updatedAt',
  ],
  json: ['to', 'payload', 'controls'],
});

/** Job fields holding caller JSON (also what a transition's patch encodes). */
export const JOB_JSON_FIELDS = ['payload', 'overrides', 'tenant', 'digest', 'error', 'output'] as const;

export const jobDocuments = new DocumentMapper<Job>({
  fields: [
    'organizationId',
    'environmentId',
    'notificationId',
    'transactionId',
    'subscriberId',
    'externalSubscriberId',
    'workflowId',
    'workflowIdentifier',
    'stepId',
    'parentId',
    'type',
    'status',
    'providerId',
    'payload',
    'overrides',
    'tenant',
    'actorId',
    'contextKeys',
    'digest',
    'digestBucketKey',
    'mergedDigestId',
    'runAt',
    'attempts',
    'scheduleExtensionsCount',
    'error',
    'output',
    'createdAt',
    'updatedAt',
  ],
  json: JOB_JSON_FIELDS,
  defaults: { attempts: () => 0 },
});

export const messageDocuments = new DocumentMapper<Message>({
  fields: [
    'organizationId',
    'environmentId',
    'notificationId',
    'jobId',
    'subscriberId',
    'workflowId',
    'templateIdentifier',
    'stepId',
    'transactionId',
    'channel',
    'providerId',
    'status',
    'errorId',
    'errorText',
    'content',
    'subject',
    'title',
    'cta',
    'avatar',
    'actorSubscriberId',
    'actor',
    'data',
    'read',
    'seen',
    'archived',
    'lastSeenDate',
    'lastReadDate',
    'snoozedUntil',
    'archivedAt',
    'firstSeenDate',
    'deliveredAt',
    'identifier',
    'deliveryState',
    'deliveryStateAt',
    'email',
    'phone',
    'deviceTokens',
    'directWebhookUrl',
    'payload',
    'overrides',
    'tags',
    'createdAt',
    'updatedAt',
  ],
  json: ['content', 'cta', 'actor', 'data', 'payload', 'overrides'],
  defaults: { deliveredAt: () => [], read: () => false, seen: () => false, archived: () => false },
});

export const executionDetailDocuments = new DocumentMapper<ExecutionDetail>({
  fields: [
    'organizationId',
    'environmentId',
    'notificationId',
    'jobId',
    'subscriberId',
    'transactionId',
    'channel',
    'providerId',
    'status',
    'source',
    'detail',
    'raw',
    'isRetry',
    'isTest',
    'createdAt',
  ],
  defaults: { raw: () => null },
});

export const deliveryEventDocuments = new DocumentMapper<DeliveryEventRecord>({
  fields: ['organizationId', 'environmentId', 'integrationId', 'eventKey', 'messageId', 'type', 'occurredAt', 'createdAt'],
});

/** Suppressions have no id of their own: the (environment, address) unique index is their key. */
export const suppressionDocuments = new DocumentMapper<Suppression>({
  fields: ['organizationId', 'environmentId', 'address', 'channel', 'reason', 'providerId', 'messageId', 'detail', 'createdAt'],
});

/** A digest event as its bucket keeps it: the payload as caller JSON, the time as a date. */
export const digestEventDocuments = {
  toDocument: (event: DigestEvent): Doc => ({ jobId: event.jobId, notificationId: event.notificationId, payload: toStoredJson(event.payload), at: event.at }),
  toDomain: (doc: Doc): DigestEvent => ({
    jobId: doc.jobId,
    notificationId: doc.notificationId,
    payload: fromStoredJson(doc.payload ?? {}),
    at: new Date(doc.at),
  }),
};
