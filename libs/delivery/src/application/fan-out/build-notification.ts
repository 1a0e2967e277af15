import { EnvironmentScope, deterministicId, timeOrderedDeterministicId } from '@app/kernel';
import { Subscriber } from '@app/subscribers';
import { Workflow } from '@app/workflows';
import { Job } from '../../domain/job';
import { Notification, NotificationTopic } from '../../domain/notification';
import { StepType } from '../../domain/step-type';
import { TriggerRecord } from '../../domain/trigger';

export interface RecipientContext {
  trigger: TriggerRecord;
  workflow: Workflow;
  tenant?: Record<string, unknown>;
  actorId?: string;
  topic?: NotificationTopic;
  now: Date;
}

/**
 * One Notification and its chain of Jobs (one per active step) for one subscriber. Ids derive
 * from the transaction and the subscriber, so a redelivered fan-out inserts nothing new; they
 * start with the trigger's acceptance second unless an earlier version accepted it (its fan-out
 * may have begun under hash-only ids).
 */
export function buildNotification(scope: EnvironmentScope, subscriber: Subscriber, context: RecipientContext): { notification: Notification; jobs: Job[] } {
  const { trigger, workflow, now } = context;
  const idOf = trigger.timeOrderedIds ? (...parts: string[]) => timeOrderedDeterministicId(trigger.createdAt, ...parts) : deterministicId;
  const notificationId = idOf(scope.environmentId, trigger.transactionId, subscriber.id);
  const steps = workflow.steps.filter((step) => step.active);
  const notification: Notification = {
    id: notificationId,
    organizationId: scope.organizationId,
    environmentId: scope.environmentId,
    workflowId: workflow.id,
    workflowIdentifier: workflow.trigger.identifier,
    subscriberId: subscriber.id,
    externalSubscriberId: subscriber.subscriberId,
    transactionId: trigger.transactionId,
    to: { subscriberId: subscriber.subscriberId },
    payload: trigger.payload,
    channels: [...new Set(steps.map((step) => step.template.type as StepType))],
    tags: workflow.tags,
    critical: workflow.critical,
    topics: context.topic ? [context.topic] : [],
    tenantIdentifier: context.tenant?.identifier as string | undefined,
    actorSubscriberId: context.actorId,
    ...(trigger.contextKeys?.length ? { contextKeys: trigger.contextKeys } : {}),
    createdAt: now,
    updatedAt: now,
  };
  let parentId: string | undefined;
  const jobs = steps.map((step, index): Job => {
    const id = idOf(notificationId, step.id);
    const job: Job = {
      id,
      organizationId: scope.organizationId,
      environmentId: scope.environmentId,
      notificationId,
      transactionId: trigger.transactionId,
      subscriberId: subscriber.id,
      externalSubscriberId: subscriber.subscriberId,
      workflowId: workflow.id,
      workflowIdentifier: workflow.trigger.identifier,
      stepId: step.id,
      parentId,
      type: step.template.type,
      // The first job is enqueued right after the insert; the others wait for their parent.
      status: index === 0 ? 'queued' : 'pending',
      providerId: step.template.type === 'in_app' ? 'novu' : undefined,
      payload: trigger.payload,
      overrides: trigger.overrides,
      tenant: context.tenant,
      actorId: context.actorId,
      ...(trigger.contextKeys?.length ? { contextKeys: trigger.contextKeys } : {}),
      digest: step.template.type === 'digest' ? { ...(step.metadata as object) } : undefined,
      attempts: 0,
      createdAt: now,
      updatedAt: now,
    };
    parentId = id;
    return job;
  });
  return { notification, jobs };
}
