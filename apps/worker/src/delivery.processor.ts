import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { FANOUT_QUEUE, FanOut, FanOutJobData, ReconcileTriggers, RecoverSteps, RunStep, STEPS_QUEUE, StepJobData } from '@app/delivery';
import { JOB_QUEUE, JobQueue, isPermanentFailure, METRICS, Metrics, QueuedJob, RetryableJobError, noopMetrics } from '@app/kernel';

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
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly fanOut: FanOut,
    private readonly runStep: RunStep,
    private readonly reconcile: ReconcileTriggers,
    private readonly recoverSteps: RecoverSteps,
    @Optional() @Inject(METRICS) private readonly metrics: Metrics = noopMetrics,
  ) {}

  onApplicationBootstrap(): void {
    const concurrency = this.config.workerConcurrency;
    // A fan-out runs its recipients' first steps itself, so it gets the same concurrency as steps.
    this.queue.process<FanOutJobData>(FANOUT_QUEUE, { concurrency }, (job) => this.retryUnexpected(job, () => this.fanOut.execute(job.data)));
    this.queue.process<StepJobData>(STEPS_QUEUE, { concurrency }, (job) => {
      const prior = job.data.priorAttempts ?? 0;
      return this.retryUnexpected(
        job,
        () => this.runStep.execute({ jobId: job.data.jobId, phase: job.data.phase, attemptsMade: prior + job.attemptsMade, attempts: prior + job.attempts }),
        (reason) => this.runStep.giveUp(job.data.jobId, reason),
      );
    });
    this.reconcileTimer = setInterval(() => {
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
  private async retryUnexpected(job: QueuedJob, work: () => Promise<void>, onLastFailure?: (reason: string) => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      // Data the store refuses, or input the domain refuses, fails the same way every time: end it now, once.
      if (onLastFailure && isPermanentFailure(error)) {
        this.logger.warn(`${job.queueName} job ${job.id} failed for good, not retried: ${(error as Error).message}`);
        await onLastFailure((error as Error).message);
        return;
      }
      const last = job.attemptsMade + 1 >= job.attempts;
      if (last && onLastFailure) await onLastFailure((error as Error).message).catch(() => undefined);
      if (error instanceof RetryableJobError) throw error;
      this.logger.error(`${job.queueName} job ${job.id} failed (attempt ${job.attemptsMade + 1}/${job.attempts}): ${(error as Error).stack}`);
      throw new RetryableJobError((error as Error).message);
    }
  }
}
