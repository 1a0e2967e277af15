import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, NotFoundError } from '@app/kernel';
import { SUBSCRIBER_REPOSITORY, Subscriber, SubscriberRepository } from '@app/subscribers';
import { WORKFLOW_REPOSITORY, Workflow, WorkflowRepository } from '@app/workflows';
import { ExecutionDetail, jobProviderId } from '../../domain/execution-detail';
import { Job } from '../../domain/job';
import { Notification } from '../../domain/notification';
import { EXECUTION_DETAIL_REPOSITORY, ExecutionDetailRepository } from '../../ports/execution-detail.repository.port';
import { JOB_REPOSITORY, JobRepository } from '../../ports/job.repository.port';
import { NOTIFICATION_REPOSITORY, NotificationRepository } from '../../ports/notification.repository.port';

/** A notification as the activity feed shows it: its jobs with their step and execution details. */
export interface NotificationActivity {
  notification: Notification;
  subscriber?: Subscriber;
  workflow?: Workflow;
  jobs: { job: Job; executionDetails: ExecutionDetail[] }[];
}

export class NotificationNotFoundError extends NotFoundError {
  constructor() {
    super('notification_not_found', 'Notification not found');
  }
}

/** Loads the activity of notifications in a few batched reads (no query per job). */
@Injectable()
export class GetNotificationActivity {
  constructor(
    @Inject(NOTIFICATION_REPOSITORY) private readonly notifications: NotificationRepository,
    @Inject(JOB_REPOSITORY) private readonly jobs: JobRepository,
    @Inject(EXECUTION_DETAIL_REPOSITORY) private readonly details: ExecutionDetailRepository,
    @Inject(SUBSCRIBER_REPOSITORY) private readonly subscribers: SubscriberRepository,
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
  ) {}

  async execute(scope: EnvironmentScope, notificationId: string): Promise<NotificationActivity> {
    const notification = await this.notifications.findById(scope, notificationId);
    if (!notification) throw new NotificationNotFoundError();
    const [activity] = await this.describe(scope, [notification]);
    return activity;
  }

  async describe(scope: EnvironmentScope, notifications: Notification[]): Promise<NotificationActivity[]> {
    if (!notifications.length) return [];
    const jobs = await this.jobs.findByNotificationIds(
      scope,
      notifications.map((n) => n.id),
    );
    const details = await this.details.listByJobIds(
      scope,
      jobs.map((j) => j.id),
    );
    const subscribers = await this.subscribers.findManyByIds(scope, [...new Set(notifications.map((n) => n.subscriberId))]);
    const workflows = new Map<string, Workflow | null>();
    for (const id of new Set(notifications.map((n) => n.workflowId))) workflows.set(id, await this.workflows.findByIdIncludingDeleted(scope, id));
    return notifications.map((notification) => ({
      notification,
      subscriber: subscribers.find((s) => s.id === notification.subscriberId),
      workflow: workflows.get(notification.workflowId) ?? undefined,
      jobs: jobs
        .filter((job) => job.notificationId === notification.id)
        .map((job) => {
          const executionDetails = details.filter((detail) => detail.jobId === job.id);
          // A job sending, or waiting for a retry, shows the provider its message goes through.
          const providerId = jobProviderId(job, executionDetails);
          return { job: providerId === job.providerId ? job : { ...job, providerId }, executionDetails };
        }),
    }));
  }
}
