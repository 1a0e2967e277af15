import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { Attempt, FANOUT_QUEUE, FanOut, PipelineQueue, ReconcileTriggers, RecoverSteps, RunStep, STEPS_QUEUE, attemptOf } from '@app/delivery';
import {
  DeferredJobError,
  JOB_QUEUE,
  isPermanentFailure,
  METRICS,
  Metrics,
  QueuedJob,
  RetryableJobError,
  StoreUnavailableError,
  noopMetrics,
} from '@app/kernel';
import { StoreOutage } from './store-outage';

const RECONCILE_EVERY_MS = 10_000;

/**
 * The queue-driven side: one handler per pipeline queue, plus the reconcilers that re-enqueue
 * accepted triggers and step jobs the queue never got or lost. Runs in the worker, and in the embedded process.
 */
@Injectable()
export class DeliveryProcessor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliveryProcessor.name);
  private reconcileTimer?: NodeJS.Timeout;

  constructor(
    @Inject(JOB_QUEUE) private readonly queue: PipelineQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly fanOut: FanOut,
    private readonly runStep: RunStep,
    private readonly reconcile: ReconcileTriggers,
    private readonly recoverSteps: RecoverSteps,
    private readonly outage: StoreOutage,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics = noopMetrics,
  ) {}

  onApplicationBootstrap(): void {
    // A fan-out job carries many triggers and runs their first steps itself: fewer of them at once
    // (AppConfig.fanOutConcurrency) bound the deliveries a worker holds in flight.
    this.queue.process(FANOUT_QUEUE, { concurrency: this.config.fanOutConcurrency }, (job) =>
      this.retryUnexpected(job, attemptOf(job), () => this.fanOut.execute(job.data)),
    );
    this.queue.process(STEPS_QUEUE, { concurrency: this.config.workerConcurrency }, (job) => {
      const attempt = attemptOf(job);
      return this.retryUnexpected(
        job,
        attempt,
        () => this.runStep.execute({ jobId: job.data.jobId, phase: job.data.phase, attempt }),
        (reason) => this.runStep.giveUp(job.data.jobId, reason),
      );
    });
    this.reconcileTimer = setInterval(() => {
      if (this.outage.ongoing) return;
      this.reconcile.execute(500, this.config.recoveryAfterMs).then(
        (count) => {
          this.metrics.reconciled('triggers', count);
          if (count) this.logger.warn(`Re-enqueued ${count} accepted trigger(s) that had not reached the queue`);
        },
        (error) => this.logger.error(`Reconciler failed: ${error.message}`),
      );
      this.recoverSteps.execute(500, this.config.recoveryAfterMs).then(
        (count) => {
          this.metrics.reconciled('steps', count);
          if (count) this.logger.warn(`Re-enqueued ${count} step job(s) the queue had lost`);
        },
        (error) => this.logger.error(`Step recovery failed: ${error.message}`),
      );
    }, RECONCILE_EVERY_MS);
    this.reconcileTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.reconcileTimer);
  }

  // Anything unexpected (the store or the network hiccuped) is worth another try with backoff.
  // On the last attempt, `onLastFailure` records the failure where the API shows it.
  // A store that does not answer is StoreOutage's: the job is deferred and spends no attempt.
  private retryUnexpected(job: QueuedJob, attempt: Attempt, work: () => Promise<void>, onLastFailure?: (reason: string) => Promise<void>): Promise<void> {
    return this.outage.run(() => this.settleFailure(job, attempt, work, onLastFailure));
  }

  private async settleFailure(job: QueuedJob, attempt: Attempt, work: () => Promise<void>, onLastFailure?: (reason: string) => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      // The store is away, or the job waits its turn (a vendor's pace): no attempt spent, nothing to give up on.
      if (error instanceof StoreUnavailableError || error instanceof DeferredJobError) throw error;
      // Data the store refuses, or input the domain refuses, fails the same way every time: end it now, once.
      if (onLastFailure && isPermanentFailure(error)) {
        this.logger.warn(`${job.queueName} job ${job.id} failed for good, not retried: ${(error as Error).message}`);
        await onLastFailure((error as Error).message);
        return;
      }
      if (attempt.isLast && onLastFailure) await onLastFailure((error as Error).message).catch(() => undefined);
      if (error instanceof RetryableJobError) throw error;
      this.logger.error(`${job.queueName} job ${job.id} failed (attempt ${attempt.number}/${attempt.allowed}): ${(error as Error).stack}`);
      throw new RetryableJobError((error as Error).message);
    }
  }
}
