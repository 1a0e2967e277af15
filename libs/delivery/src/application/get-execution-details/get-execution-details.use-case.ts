import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, NotFoundError } from '@app/kernel';
import { SUBSCRIBER_REPOSITORY, SubscriberRepository } from '@app/subscribers';
import { ExecutionDetail } from '../../domain/execution-detail';
import { EXECUTION_DETAIL_REPOSITORY, ExecutionDetailRepository } from '../../ports/execution-detail.repository.port';
import { JOB_REPOSITORY, JobRepository } from '../../ports/job.repository.port';
import { NOTIFICATION_REPOSITORY, NotificationRepository } from '../../ports/notification.repository.port';

export class ExecutionDetailsSubscriberNotFoundError extends NotFoundError {
  constructor(subscriberId: string) {
    super('subscriber_not_found', `Subscriber not found for id ${subscriberId}`);
  }
}

export interface GetExecutionDetailsQuery {
  scope: EnvironmentScope;
  notificationId: string;
  /** The caller's subscriberId of the notification's subscriber. */
  subscriberId: string;
}

/** The details with the workflow of their notification (Novu's `_notificationTemplateId`). */
export interface NotificationExecutionDetails {
  workflowId?: string;
  details: ExecutionDetail[];
}

/**
 * GET /v1/execution-details (Novu's rules): every execution detail of one subscriber's notification,
 * oldest first. An unknown subscriber is a 404; a notification that is not that subscriber's (or
 * none) has no details.
 */
@Injectable()
export class GetExecutionDetails {
  constructor(
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(NOTIFICATION_REPOSITORY) private readonly notifications: NotificationRepository,
    @Inject(JOB_REPOSITORY) private readonly jobs: JobRepository,
    @Inject(EXECUTION_DETAIL_REPOSITORY) private readonly details: ExecutionDetailRepository,
  ) {}

  async execute({ scope, notificationId, subscriberId }: GetExecutionDetailsQuery): Promise<NotificationExecutionDetails> {
    const subscriber = await this.subscribers.findBySubscriberId(scope, subscriberId);
    if (!subscriber) throw new ExecutionDetailsSubscriberNotFoundError(subscriberId);
    const notification = await this.notifications.findById(scope, notificationId);
    if (!notification || notification.subscriberId !== subscriber.id) return { details: [] };
    const jobs = await this.jobs.findByNotificationIds(scope, [notification.id]);
    const details = await this.details.listByJobIds(
      scope,
      jobs.map((job) => job.id),
    );
    return { workflowId: notification.workflowId, details: details.filter((detail) => detail.subscriberId === subscriber.id) };
  }
}
