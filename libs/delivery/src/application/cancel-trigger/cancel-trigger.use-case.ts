import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope } from '@app/kernel';
import { DETAIL, createExecutionDetail } from '../../domain/execution-detail';
import { EXECUTION_DETAIL_REPOSITORY, ExecutionDetailRepository } from '../../ports/execution-detail.repository.port';
import { JOB_REPOSITORY, JobRepository } from '../../ports/job.repository.port';
import { TRIGGER_REPOSITORY, TriggerRepository } from '../../ports/trigger.repository.port';

/**
 * DELETE /v1/events/trigger/{transactionId}: marks the trigger canceled (a fan-out still running
 * stops creating jobs) and cancels every job not yet running, delayed and digest-waiting ones
 * included; their queue entries find a terminal job and do nothing. True when anything was canceled.
 */
@Injectable()
export class CancelTrigger {
  constructor(
    @Inject(TRIGGER_REPOSITORY) private readonly triggers: TriggerRepository,
    @Inject(JOB_REPOSITORY) private readonly jobs: JobRepository,
    @Inject(EXECUTION_DETAIL_REPOSITORY) private readonly details: ExecutionDetailRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(scope: EnvironmentScope, transactionId: string): Promise<boolean> {
    const now = this.clock.now();
    const triggerCanceled = await this.triggers.cancel(scope, transactionId, now);
    const canceled = await this.jobs.cancelPendingByTransaction(scope, transactionId, now);
    await this.details.appendMany(canceled.map((job) => createExecutionDetail({ job, status: 'Warning', detail: DETAIL.STEP_CANCELED_BY_REQUEST }, now)));
    return triggerCanceled || canceled.length > 0;
  }
}
