import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, JOB_QUEUE } from '@app/kernel';
import { Job } from '../../domain/job';
import { JOB_REPOSITORY, JobRepository } from '../../ports/job.repository.port';
import { PipelineQueue, STEPS_QUEUE, stepJob } from '../queues';

/** By default, a job this long overdue is checked against the queue (well past lock expiry and stall checks). */
export const RECOVER_AFTER_MS = 120_000;

/**
 * The store is the system of record, the queue only its schedule: when the queue loses jobs (a Redis
 * restart without persistence, an add that failed after a status change), steps would wait forever.
 * This finds jobs that should have moved and are not held by the queue, and enqueues them again;
 * a job still in the queue is left alone, and running a step twice is harmless anyway.
 */
@Injectable()
export class RecoverSteps {
  constructor(
    @Inject(JOB_REPOSITORY) private readonly jobs: JobRepository,
    @Inject(JOB_QUEUE) private readonly queue: PipelineQueue,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(limit = 500, afterMs = RECOVER_AFTER_MS): Promise<number> {
    const overdue = await this.jobs.findOverdue(new Date(this.clock.now().getTime() - afterMs), limit);
    let recovered = 0;
    for (const job of overdue) if (await this.recover(job)) recovered++;
    return recovered;
  }

  private async recover(job: Job): Promise<boolean> {
    if (job.status === 'delayed') {
      // Its wake-up is due and the job has not moved: add one, keyed by the due time so repeats dedupe.
      const id = `${job.id}:recover:${job.runAt?.getTime() ?? 0}`;
      if (await this.queue.getJobState(STEPS_QUEUE, id)) return false;
      await this.queue.add(STEPS_QUEUE, stepJob(id, { jobId: job.id, phase: 'wake' }));
      return true;
    }
    const state = await this.queue.getJobState(STEPS_QUEUE, job.id);
    if (state === 'waiting' || state === 'active' || state === 'delayed') return false;
    if (state) await this.queue.remove(STEPS_QUEUE, job.id); // finished in the queue, not in the store
    await this.queue.add(STEPS_QUEUE, stepJob(job.id, { jobId: job.id }));
    return true;
  }
}
