import { Injectable } from '@nestjs/common';
import { stepMetadata } from '@app/workflows';
import { computeDelayMs } from '../../../domain/delay';
import { DETAIL } from '../../../domain/execution-detail';
import { stepJob } from '../../queues';
import { StepRecorder } from '../channels/step-recorder';
import { StepContext } from '../step-context';
import { StepHandler } from '../step-handler';
import { StepOutcome } from '../step-outcome';

/** A delay step: waits (the job `delayed`) for a wake-up job due when the delay ends, then lets the chain go on. */
@Injectable()
export class DelayStep implements StepHandler {
  constructor(private readonly recorder: StepRecorder) {}

  async run(context: StepContext): Promise<StepOutcome> {
    const { job, step, subscriber, session } = context;
    const delayMs = computeDelayMs(stepMetadata(step, 'delay'), job.payload, job.overrides, context.now, subscriber.timezone);
    const runAt = new Date(context.now.getTime() + delayMs);
    session.transition(job.id, 'delayed', { runAt });
    this.recorder.detail(context, 'Pending', DETAIL.STEP_DELAYED, { raw: { delayMs, runAt: runAt.toISOString() } });
    session.enqueue(stepJob(`${job.id}:wake`, { jobId: job.id, phase: 'wake' }, delayMs));
    return { kind: 'waiting' };
  }

  async wake(context: StepContext): Promise<StepOutcome> {
    context.session.transition(context.job.id, 'completed');
    this.recorder.detail(context, 'Success', DETAIL.DELAY_FINISHED);
    return { kind: 'ended' };
  }
}
