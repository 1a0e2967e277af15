import { ExecutionDetail, Job, Message, Notification, isTerminalJobStatus } from '@app/delivery';
import { EnvironmentRecords, deleteEnvironmentRecords, shaped } from './memory-records';

/**
 * The delivery records one memory store holds, shared by the notification, job, message and
 * execution-detail repositories (the chain repository writes all four), and retention keeps every row
 * of a notification that still has an unfinished job.
 */
export class DeliveryTables implements EnvironmentRecords {
  readonly notifications = new Map<string, Notification>();
  readonly jobs = new Map<string, Job>();
  readonly messages = new Map<string, Message>();
  readonly details = new Map<string, ExecutionDetail>();

  purgeEnvironment(environmentId: string): number {
    return [this.notifications, this.jobs, this.messages, this.details].reduce((sum, table) => sum + deleteEnvironmentRecords<string>(table, environmentId), 0);
  }

  /** No job of the notification is pending, queued, delayed or running (retention may take its rows). */
  notificationFinished(notificationId: string): boolean {
    for (const job of this.jobs.values()) {
      if (job.notificationId === notificationId && !isTerminalJobStatus(job.status)) return false;
    }
    return true;
  }
}

/** Records shaped as the SQL adapters read their rows back: optional fields absent, never null. */
export const toNotification = (n: Notification): Notification =>
  shaped(
    n,
    [
      'id',
      'organizationId',
      'environmentId',
      'workflowId',
      'workflowIdentifier',
      'subscriberId',
      'externalSubscriberId',
      'transactionId',
      'to',
      'payload',
      'channels',
      'tags',
      'critical',
      'topics',
      'createdAt',
      'updatedAt',
    ],
    ['controls', 'severity', 'tenantIdentifier', 'actorSubscriberId', 'contextKeys', 'digestedNotificationId'],
  );

export const JOB_REQUIRED_FIELDS = [
  'id',
  'organizationId',
  'environmentId',
  'notificationId',
  'transactionId',
  'subscriberId',
  'externalSubscriberId',
  'workflowId',
  'workflowIdentifier',
  'stepId',
  'type',
  'status',
  'payload',
  'overrides',
  'attempts',
  'createdAt',
  'updatedAt',
] as const;

export const JOB_OPTIONAL_FIELDS = [
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
] as const;

export const toJob = (j: Job): Job => shaped(j, JOB_REQUIRED_FIELDS, JOB_OPTIONAL_FIELDS);

export const toMessage = (m: Message): Message =>
  shaped(
    { ...m, deliveredAt: m.deliveredAt ?? [] },
    [
      'id',
      'organizationId',
      'environmentId',
      'notificationId',
      'jobId',
      'subscriberId',
      'workflowId',
      'templateIdentifier',
      'transactionId',
      'channel',
      'status',
      'content',
      'read',
      'seen',
      'archived',
      'deliveredAt',
      'payload',
      'overrides',
      'createdAt',
      'updatedAt',
    ],
    [
      'stepId',
      'providerId',
      'errorId',
      'errorText',
      'subject',
      'title',
      'cta',
      'avatar',
      'actorSubscriberId',
      'actor',
      'data',
      'lastSeenDate',
      'lastReadDate',
      'snoozedUntil',
      'archivedAt',
      'firstSeenDate',
      'identifier',
      'deliveryState',
      'deliveryStateAt',
      'email',
      'phone',
      'deviceTokens',
      'directWebhookUrl',
      'tags',
    ],
  );

export const toExecutionDetail = (d: ExecutionDetail): ExecutionDetail =>
  shaped(
    { ...d, raw: d.raw ?? null },
    [
      'id',
      'organizationId',
      'environmentId',
      'notificationId',
      'jobId',
      'subscriberId',
      'transactionId',
      'status',
      'source',
      'detail',
      'raw',
      'isRetry',
      'isTest',
      'createdAt',
    ],
    ['channel', 'providerId'],
  );

/** The SQL adapters read delivery records by environment and organization both. */
export const inScope = (scope: { organizationId: string; environmentId: string }) => (row: { organizationId: string; environmentId: string }) =>
  row.organizationId === scope.organizationId && row.environmentId === scope.environmentId;
