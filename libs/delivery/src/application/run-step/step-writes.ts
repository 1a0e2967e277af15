import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { EnvironmentScope, JOB_QUEUE, NewJob } from '@app/kernel';
import { ExecutionDetail } from '../../domain/execution-detail';
import { Job, JobStatus } from '../../domain/job';
import { Message } from '../../domain/message';
import { DIGEST_BUCKET_REPOSITORY, DigestBucketRepository, DigestEvent, OpenDigest } from '../../ports/digest-bucket.repository.port';
import { EXECUTION_DETAIL_REPOSITORY, ExecutionDetailRepository } from '../../ports/execution-detail.repository.port';
import { EndedChildStatus, JOB_REPOSITORY, JobPatch, JobRepository } from '../../ports/job.repository.port';
import { MESSAGE_REPOSITORY, MessageDeliveryUpdate, MessageRepository } from '../../ports/message.repository.port';
import { IN_APP_DELIVERY_LISTENER, InAppDeliveryListener } from '../../ports/in-app-delivery-listener.port';
import { NOTIFICATION_REPOSITORY, NotificationRepository } from '../../ports/notification.repository.port';
import { THROTTLE_WINDOW_REPOSITORY, ThrottleDecision, ThrottleRequest, ThrottleWindowRepository } from '../../ports/throttle-window.repository.port';
import { PipelineQueue, STEPS_QUEUE, StepJobData } from '../queues';

/**
 * The writes of a step that touches nothing outside its own chain: job moves, execution details,
 * messages, the hand-over to the next job, step jobs to add. This is all a chain the fan-out has
 * not written yet can take (UnwrittenChain), so it is all a step run ahead of that write (the
 * in-app step, which calls no one outside) may be given.
 */
export interface RunAheadWrites {
  /** Compare-and-set on the job's status (JobRepository.transition). */
  transition(jobId: string, to: JobStatus, patch?: JobPatch): Promise<boolean>;
  appendDetail(detail: ExecutionDetail): Promise<void>;
  /** MessageRepository.insertIfAbsent. */
  insertMessage(message: Message): Promise<{ message: Message; created: boolean }>;
  /** JobRepository.queueNext. */
  queueNext(parentId: string, digestEvents?: Record<string, unknown>[]): Promise<Job | null>;
  /** JobRepository.cancelChildren. */
  cancelChildren(notificationId: string, afterJobId?: string, status?: EndedChildStatus): Promise<string[]>;
  /** Adds a job to the steps queue (held until the chain is written, when there is one to write). */
  enqueue(job: NewJob<StepJobData>): Promise<void>;
}

/**
 * Every write a step makes, against the store and the queue (StoreStepWrites): what RunAheadWrites
 * has, plus what must follow a written chain — a provider's outcome on its message (the message
 * is the record of the attempt, so it exists before the call), and the digest buckets and throttle
 * windows other notifications' steps share. A step that needs these cannot be given an unwritten chain.
 */
export interface StepWrites extends RunAheadWrites {
  /** MessageRepository.updateDelivery: a provider's outcome. */
  updateMessage(id: string, update: MessageDeliveryUpdate): Promise<void>;
  /** DigestBucketRepository.mergeIntoOpen. */
  mergeIntoDigest(scope: EnvironmentScope, bucketKey: string, event: DigestEvent): Promise<OpenDigest | null>;
  /** DigestBucketRepository.openAsMaster. */
  openDigest(scope: EnvironmentScope, bucketKey: string, masterJobId: string, masterEvent: DigestEvent, fireAt: Date): Promise<boolean>;
  /** DigestBucketRepository.close. */
  closeDigest(scope: EnvironmentScope, bucketKey: string, masterJobId: string): Promise<DigestEvent[] | null>;
  /** DigestBucketRepository.recordEvent. */
  recordDigestEvent(scope: EnvironmentScope, bucketKey: string, at: Date): Promise<void>;
  /** DigestBucketRepository.hasRecentEvent: the one read here, kept beside the bucket writes it orders. */
  hasRecentDigestEvent(scope: EnvironmentScope, bucketKey: string, since: Date): Promise<boolean>;
  /** NotificationRepository.setDigestedNotification: a merged digest points at its master's notification. */
  setDigestedNotification(notificationId: string, masterNotificationId: string): Promise<void>;
  /** ThrottleWindowRepository.admit. */
  admitToThrottleWindow(scope: EnvironmentScope, key: string, request: ThrottleRequest): Promise<ThrottleDecision>;
}

@Injectable()
export class StoreStepWrites implements StepWrites {
  constructor(
    @Inject(JOB_REPOSITORY) private readonly jobs: JobRepository,
    @Inject(EXECUTION_DETAIL_REPOSITORY) private readonly details: ExecutionDetailRepository,
    @Inject(MESSAGE_REPOSITORY) private readonly messages: MessageRepository,
    @Inject(DIGEST_BUCKET_REPOSITORY) private readonly digests: DigestBucketRepository,
    @Inject(NOTIFICATION_REPOSITORY) private readonly notifications: NotificationRepository,
    @Inject(THROTTLE_WINDOW_REPOSITORY) private readonly throttleWindows: ThrottleWindowRepository,
    @Inject(JOB_QUEUE) private readonly queue: PipelineQueue,
    @Optional() @Inject(IN_APP_DELIVERY_LISTENER) private readonly inAppListener?: InAppDeliveryListener,
  ) {}

  transition(jobId: string, to: JobStatus, patch?: JobPatch): Promise<boolean> {
    return this.jobs.transition(jobId, to, patch);
  }

  appendDetail(detail: ExecutionDetail): Promise<void> {
    return this.details.append(detail);
  }

  async insertMessage(message: Message): Promise<{ message: Message; created: boolean }> {
    const inserted = await this.messages.insertIfAbsent(message);
    if (inserted.created) notifyInAppDelivered(this.inAppListener, [inserted.message]);
    return inserted;
  }

  async updateMessage(id: string, update: MessageDeliveryUpdate): Promise<void> {
    await this.messages.updateDelivery(id, update);
  }

  queueNext(parentId: string, digestEvents?: Record<string, unknown>[]): Promise<Job | null> {
    return this.jobs.queueNext(parentId, digestEvents);
  }

  cancelChildren(notificationId: string, afterJobId?: string, status?: EndedChildStatus): Promise<string[]> {
    return this.jobs.cancelChildren(notificationId, afterJobId, undefined, status);
  }

  enqueue(job: NewJob<StepJobData>): Promise<void> {
    return this.queue.add(STEPS_QUEUE, job);
  }

  mergeIntoDigest(scope: EnvironmentScope, bucketKey: string, event: DigestEvent): Promise<OpenDigest | null> {
    return this.digests.mergeIntoOpen(scope, bucketKey, event);
  }

  openDigest(scope: EnvironmentScope, bucketKey: string, masterJobId: string, masterEvent: DigestEvent, fireAt: Date): Promise<boolean> {
    return this.digests.openAsMaster(scope, bucketKey, masterJobId, masterEvent, fireAt);
  }

  closeDigest(scope: EnvironmentScope, bucketKey: string, masterJobId: string): Promise<DigestEvent[] | null> {
    return this.digests.close(scope, bucketKey, masterJobId);
  }

  recordDigestEvent(scope: EnvironmentScope, bucketKey: string, at: Date): Promise<void> {
    return this.digests.recordEvent(scope, bucketKey, at);
  }

  hasRecentDigestEvent(scope: EnvironmentScope, bucketKey: string, since: Date): Promise<boolean> {
    return this.digests.hasRecentEvent(scope, bucketKey, since);
  }

  async setDigestedNotification(notificationId: string, masterNotificationId: string): Promise<void> {
    await this.notifications.setDigestedNotification(notificationId, masterNotificationId);
  }

  admitToThrottleWindow(scope: EnvironmentScope, key: string, request: ThrottleRequest): Promise<ThrottleDecision> {
    return this.throttleWindows.admit(scope, key, request);
  }
}

const listenerLogger = new Logger('InAppDeliveryListener');

/**
 * Tells the listener of stored in-app messages without waiting for it: the delivery is done once the
 * message is stored, and an announcement (best effort, like the socket it feeds) never slows or fails it.
 */
export function notifyInAppDelivered(listener: InAppDeliveryListener | undefined, messages: Message[]): void {
  const inApp = messages.filter((message) => message.channel === 'in_app' && message.status === 'sent');
  if (!listener || !inApp.length) return;
  void listener.delivered(inApp).catch((error) => listenerLogger.warn(`In-app delivery not announced: ${(error as Error).message}`));
}
