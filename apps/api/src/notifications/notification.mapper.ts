import { ExecutionDetail, Job, JobDigest, NotificationActivity } from '@app/delivery';
import { Subscriber } from '@app/subscribers';
import { StepTemplate, StepVariant, Workflow, WorkflowStep } from '@app/workflows';
import { ActivitySubscriberResponseDto } from '../shared-dto/subscriber.dto';
import { toFilterResponse } from '../shared-dto/workflow.mapper';
import {
  ActivityDigestResponseDto,
  ActivityExecutionDetailResponseDto,
  ActivityJobResponseDto,
  ActivityNotificationResponseDto,
  ActivityNotificationsResponseDto,
  ActivityStepResponseDto,
  ActivityStepVariantResponseDto,
  ActivityTemplateResponseDto,
} from './notification.dto';
import { definedOnly } from '../shared-dto/defined-only';

const SEVERITIES = ['high', 'medium', 'low', 'none'];
/** Workflows stored and edited through this API are Novu's v1 kind. */
const WORKFLOW_ORIGIN = 'novu-cloud-v1';
/** Novu's schema requires a job providerId; steps without a provider (digest, delay) show Novu's own. */
const DEFAULT_JOB_PROVIDER_ID = 'novu';

function toTemplateResponse({ id, ...rest }: StepTemplate): Record<string, unknown> {
  return definedOnly({ _id: id, ...rest });
}

function toVariantResponse(step: StepVariant, parentId?: string): ActivityStepVariantResponseDto {
  return {
    _id: step.id,
    _templateId: step.template.id,
    active: step.active,
    name: step.name,
    filters: step.filters.map(toFilterResponse),
    ...(step.metadata ? { metadata: { ...step.metadata } } : {}),
    template: toTemplateResponse(step.template),
    ...(parentId !== undefined ? { _parentId: parentId } : {}),
  };
}

/** The workflow step a job runs; a minimal stand-in when the workflow or the step is gone. */
function toStepResponse(job: Job, workflow: Workflow | undefined): ActivityStepResponseDto {
  const steps: WorkflowStep[] = workflow?.steps ?? [];
  const index = steps.findIndex((step) => step.id === job.stepId);
  if (index >= 0) {
    const step = steps[index];
    return { ...toVariantResponse(step, index > 0 ? steps[index - 1].id : undefined), variants: step.variants.map((variant) => toVariantResponse(variant)) };
  }
  const variant = steps.flatMap((step) => step.variants).find((v) => v.id === job.stepId);
  if (variant) return toVariantResponse(variant);
  return { _id: job.stepId, _templateId: job.workflowId, active: true, filters: [] };
}

function toDigestResponse(digest: JobDigest): ActivityDigestResponseDto {
  const timed = digest.timed ?? (digest.cron ? { cronExpression: digest.cron } : undefined);
  return definedOnly({
    type: digest.type ?? 'regular',
    digestKey: digest.digestKey,
    amount: digest.amount,
    unit: digest.unit,
    events: digest.events,
    backoff: digest.backoff,
    backoffAmount: digest.backoffAmount,
    backoffUnit: digest.backoffUnit,
    updateMode: digest.updateMode,
    timed: timed
      ? definedOnly({
          atTime: timed.atTime,
          weekDays: timed.weekDays,
          monthDays: timed.monthDays?.map(Number),
          ordinal: timed.ordinal,
          ordinalValue: timed.ordinalValue,
          monthlyType: timed.monthlyType,
          cronExpression: timed.cronExpression,
          untilDate: timed.untilDate,
        })
      : undefined,
  });
}

export function toExecutionDetailResponse(detail: ExecutionDetail): ActivityExecutionDetailResponseDto {
  return {
    _id: detail.id,
    createdAt: detail.createdAt.toISOString(),
    status: detail.status,
    detail: detail.detail,
    isRetry: detail.isRetry,
    isTest: detail.isTest,
    ...(detail.providerId !== undefined ? { providerId: detail.providerId } : {}),
    raw: detail.raw,
    source: detail.source,
  };
}

function toJobResponse({ job, executionDetails }: NotificationActivity['jobs'][number], workflow: Workflow | undefined): ActivityJobResponseDto {
  return {
    _id: job.id,
    type: job.type,
    status: job.status,
    providerId: job.providerId ?? DEFAULT_JOB_PROVIDER_ID,
    payload: job.payload,
    overrides: job.overrides,
    updatedAt: job.updatedAt.toISOString(),
    ...(job.scheduleExtensionsCount !== undefined ? { scheduleExtensionsCount: job.scheduleExtensionsCount } : {}),
    ...(job.digest ? { digest: toDigestResponse(job.digest) } : {}),
    step: toStepResponse(job, workflow),
    executionDetails: executionDetails.map(toExecutionDetailResponse),
  };
}

function toActivitySubscriber(activity: NotificationActivity): ActivitySubscriberResponseDto {
  const s: Subscriber | undefined = activity.subscriber;
  // A deleted subscriber still shows who the notification was for.
  if (!s) return { _id: activity.notification.subscriberId, subscriberId: activity.notification.externalSubscriberId };
  return { _id: s.id, subscriberId: s.subscriberId, ...definedOnly({ firstName: s.firstName, lastName: s.lastName, email: s.email, phone: s.phone }) };
}

function toTemplateSummary(activity: NotificationActivity): ActivityTemplateResponseDto {
  const { workflow, notification } = activity;
  const trigger = workflow?.trigger ?? { identifier: notification.workflowIdentifier, variables: [], subscriberVariables: [] };
  return {
    _id: workflow?.id ?? notification.workflowId,
    // A workflow removed from the store leaves only its trigger identifier to name it by.
    name: workflow?.name ?? notification.workflowIdentifier,
    origin: WORKFLOW_ORIGIN,
    triggers: [
      {
        type: 'event',
        identifier: trigger.identifier,
        variables: trigger.variables.map((name) => ({ name })),
        subscriberVariables: trigger.subscriberVariables.map((name) => ({ name })),
      },
    ],
  };
}

/** Domain → Novu's ActivityNotificationResponseDto; unset optional fields are left out, never null. */
export function toActivityNotificationResponse(activity: NotificationActivity): ActivityNotificationResponseDto {
  const n = activity.notification;
  return {
    _id: n.id,
    _environmentId: n.environmentId,
    _organizationId: n.organizationId,
    _subscriberId: n.subscriberId,
    transactionId: n.transactionId,
    _templateId: n.workflowId,
    ...(n.digestedNotificationId !== undefined ? { _digestedNotificationId: n.digestedNotificationId } : {}),
    createdAt: n.createdAt.toISOString(),
    updatedAt: n.updatedAt.toISOString(),
    channels: n.channels,
    subscriber: toActivitySubscriber(activity),
    template: toTemplateSummary(activity),
    jobs: activity.jobs.map((entry) => toJobResponse(entry, activity.workflow)),
    payload: n.payload,
    tags: n.tags,
    ...(n.controls !== undefined ? { controls: n.controls } : {}),
    to: n.to,
    topics: n.topics.map((topic) => ({ _topicId: topic.topicId, topicKey: topic.topicKey })),
    ...(n.severity !== undefined && SEVERITIES.includes(n.severity) ? { severity: n.severity } : {}),
    critical: n.critical,
    ...(n.contextKeys ? { contextKeys: n.contextKeys } : {}),
  };
}

/** Novu's activity feed page: `{data, totalCount, hasMore, pageSize, page}`. */
export function toActivityNotificationsResponse(
  result: { items: NotificationActivity[]; totalCount: number },
  query: { page: number; limit: number },
): ActivityNotificationsResponseDto {
  return {
    data: result.items.map(toActivityNotificationResponse),
    totalCount: result.totalCount,
    hasMore: query.page * query.limit + result.items.length < result.totalCount,
    pageSize: query.limit,
    page: query.page,
  };
}
