import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, JOB_QUEUE } from '@app/kernel';
import { TriggerRecord } from '../../domain/trigger';
import { TRIGGER_REPOSITORY, TriggerRepository } from '../../ports/trigger.repository.port';
import { FANOUT_QUEUE, PIPELINE_JOB_OPTIONS, PipelineQueue } from '../queues';

/** By default, triggers accepted this long ago and still not picked up are (re-)enqueued. */
export const RECONCILE_AFTER_MS = 30_000;

/**
 * Accepted triggers whose enqueue failed (Redis down at the wrong moment, a crash between the
 * insert and the add, a Redis that lost its data) are found here and enqueued again. A trigger
 * whose fan-out still waits in the queue (a backlog) is left alone; one whose fan-out ran out of
 * retries before it even started gets a fresh job.
 */
@Injectable()
export class ReconcileTriggers {
  constructor(
    @Inject(TRIGGER_REPOSITORY) private readonly triggers: TriggerRepository,
    @Inject(JOB_QUEUE) private readonly queue: PipelineQueue,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Returns how many triggers were enqueued again. */
  async execute(limit = 500, afterMs = RECONCILE_AFTER_MS): Promise<number> {
    const stale = await this.triggers.findStaleAccepted(new Date(this.clock.now().getTime() - afterMs), limit);
    const lost: TriggerRecord[] = [];
    for (const trigger of stale) {
      // the job it was accepted with (shared with the triggers accepted alongside), or one of its own from an earlier round
      const jobIds = [...new Set([trigger.fanOutJobId ?? trigger.id, trigger.id])];
      const states = await Promise.all(jobIds.map((id) => this.queue.getJobState(FANOUT_QUEUE, id)));
      // A job that finished (completed or out of retries) with the trigger still accepted did not
      // fan it out: a shared job added without it, when its batch wrote after the job's hold.
      const over = (state: string | undefined) => state === undefined || state === 'failed' || state === 'completed';
      if (!states.every(over)) continue;
      // else the add below would be a no-op
      if (states[jobIds.indexOf(trigger.id)] !== undefined) await this.queue.remove(FANOUT_QUEUE, trigger.id);
      lost.push(trigger);
    }
    if (lost.length) {
      await this.queue.addBulk(
        FANOUT_QUEUE,
        lost.map((t) => ({ id: t.id, data: { triggerIds: [t.id] }, ...PIPELINE_JOB_OPTIONS })),
      );
    }
    return lost.length;
  }
}
