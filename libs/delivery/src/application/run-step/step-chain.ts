import { Injectable } from '@nestjs/common';
import { StepVariant, stepMetadata } from '@app/workflows';
import { Job } from '../../domain/job';
import { isChannelStep } from '../../domain/step-type';
import { stepJob } from '../queues';
import { StepRecorder } from './channels/step-recorder';
import { EndedChildStatus } from '../../ports/job.repository.port';
import { ChainSession } from './chain-session';

/**
 * A failed channel step lets the chain go on unless its step says shouldStopOnFail; a failed HTTP
 * request step stops it unless its step says continueOnFailure; any other failed step stops it.
 */
export function failureStopsChain(job: Pick<Job, 'type'>, step: Partial<Pick<StepVariant, 'shouldStopOnFail' | 'template' | 'metadata'>> | undefined): boolean {
  if (job.type === 'http_request')
    return !(step?.template && stepMetadata({ template: step.template, metadata: step.metadata }, 'http_request')?.continueOnFailure);
  return !isChannelStep(job.type) || !!step?.shouldStopOnFail;
}

/** What happens to the rest of a notification's chain once one of its jobs has moved on. */
@Injectable()
export class StepChain {
  constructor(private readonly recorder: StepRecorder) {}

  /**
   * Queues the next job of the chain and adds it to the steps queue. Only a job nobody started yet
   * moves: a step deferred to quiet hours already let its successor go. Steps after a digest see
   * its events (Novu's step.events / step.total_count), carried on by the steps in between.
   */
  handOn(session: ChainSession, job: Job, digestEvents?: Record<string, unknown>[]): void {
    const next = session.queueNext(job.id, digestEvents ?? job.digest?.events);
    if (next) session.enqueue(stepJob(next.id, { jobId: next.id }));
  }

  /**
   * Cancels the not-yet-running jobs after `job` in its chain; `detail`, when given, is recorded
   * (a warning) on each of them.
   */
  cancelRest(session: ChainSession, job: Job, options: { detail?: string; status?: EndedChildStatus } = {}): void {
    const canceled = session.cancelChildren(job.id, options.status);
    if (options.detail === undefined) return;
    for (const id of canceled) this.recorder.detail({ session, job: { ...job, id } }, 'Warning', options.detail);
  }
}
