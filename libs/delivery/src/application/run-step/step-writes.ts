import { Inject, Injectable } from '@nestjs/common';
import { JOB_QUEUE, JobQueue, NewJob } from '@app/kernel';
import { ExecutionDetail } from '../../domain/execution-detail';
import { Job, JobStatus } from '../../domain/job';
import { Message } from '../../domain/message';
import { EXECUTION_DETAIL_REPOSITORY, ExecutionDetailRepository } from '../../ports/execution-detail.repository.port';
import { JOB_REPOSITORY, JobPatch, JobRepository } from '../../ports/job.repository.port';
import { MESSAGE_REPOSITORY, MessageDeliveryUpdate, MessageRepository } from '../../ports/message.repository.port';

/**
 * Where a step's effects go: job moves, execution details, messages, the hand-over to the next
 * job, queue adds. Normally straight to the store and the queue (StoreStepWrites); for a chain the
 * fan-out has not written yet, into memory, written with the chain in one go (UnwrittenChain).
 */
export interface StepWrites {
  /** Compare-and-set on the job's status (JobRepository.transition). */
  transition(jobId: string, to: JobStatus, patch?: JobPatch): Promise<boolean>;
  appendDetail(detail: ExecutionDetail): Promise<void>;
  /** MessageRepository.insertIfAbsent. */
  insertMessage(message: Message): Promise<{ message: Message; created: boolean }>;
  /** MessageRepository.updateDelivery: a provider's outcome. */
  updateMessage(id: string, update: MessageDeliveryUpdate): Promise<void>;
  /** JobRepository.queueNext. */
  queueNext(parentId: string, digestEvents?: Record<string, unknown>[]): Promise<Job | null>;
  /** JobRepository.cancelChildren. */
  cancelChildren(notificationId: string, afterJobId?: string): Promise<string[]>;
  /** JobQueue.add. */
  enqueue<T>(queue: string, job: NewJob<T>): Promise<void>;
}

@Injectable()
export class StoreStepWrites implements StepWrites {
  constructor(
    @Inject(JOB_REPOSITORY) private readonly jobs: JobRepository,
    @Inject(EXECUTION_DETAIL_REPOSITORY) private readonly details: ExecutionDetailRepository,
    @Inject(MESSAGE_REPOSITORY) private readonly messages: MessageRepository,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
  ) {}

  transition(jobId: string, to: JobStatus, patch?: JobPatch): Promise<boolean> {
    return this.jobs.transition(jobId, to, patch);
  }

  appendDetail(detail: ExecutionDetail): Promise<void> {
    return this.details.append(detail);
  }

  insertMessage(message: Message): Promise<{ message: Message; created: boolean }> {
    return this.messages.insertIfAbsent(message);
  }

  async updateMessage(id: string, update: MessageDeliveryUpdate): Promise<void> {
    await this.messages.updateDelivery(id, update);
  }

  queueNext(parentId: string, digestEvents?: Record<string, unknown>[]): Promise<Job | null> {
    return this.jobs.queueNext(parentId, digestEvents);
  }

  cancelChildren(notificationId: string, afterJobId?: string): Promise<string[]> {
    return this.jobs.cancelChildren(notificationId, afterJobId);
  }

  async enqueue<T>(queue: string, job: NewJob<T>): Promise<void> {
    await this.queue.add(queue, job);
  }
}
