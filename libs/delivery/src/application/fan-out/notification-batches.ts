import { Inject, Injectable, Logger } from '@nestjs/common';
import { DeferredJobError, EnvironmentScope, JOB_QUEUE, RetryableJobError } from '@app/kernel';
import { Subscriber } from '@app/subscribers';
import { Job } from '../../domain/job';
import { Notification } from '../../domain/notification';
import { callsOut, callsVendor } from '../../domain/step-type';
import { TRIGGER_REPOSITORY, TriggerRepository } from '../../ports/trigger.repository.port';
import { PIPELINE_JOB_OPTIONS, PipelineQueue, STEPS_QUEUE, firstAttempt, stepJob, stepRetryJob } from '../queues';
import { ChainSession } from '../run-step/chain-session';
import { ChainSessions } from '../run-step/chain-sessions';
import { RunStep } from '../run-step/run-step.use-case';
import { RecipientContext, buildNotification } from './build-notification';

/**
 * Delivers a trigger to a batch of subscribers: builds each one's notification and chain, runs its
 * first step against a session of it (ChainSession), all of the batch at once, then writes the
 * batch's sessions in one write: a notification with its jobs as the step left them, its message
 * and details. (A queue job per delivery would cost more than the delivery.)
 *
 * A vendor's channel step (email, SMS, chat, push) first in a batch of several runs here too: each
 * delivery stores its chain with its message before its call (ProviderDelivery; the batch's stores
 * coalesce into a few writes), the batch's calls go out together, and their outcomes go in the
 * batch's write. What must wait (the integration's pace) or retry goes to the steps queue as its
 * own job. A lone subscriber's vendor step, and an HTTP request step (an endpoint the workflow names,
 * whose time is anyone's), are written as built and go to the steps queue: a stalled endpoint then
 * holds steps-queue slots, not the fan-out slots every environment's triggers pass through.
 */
@Injectable()
export class NotificationBatches {
  private readonly logger = new Logger(NotificationBatches.name);

  constructor(
    @Inject(TRIGGER_REPOSITORY) private readonly triggers: TriggerRepository,
    @Inject(JOB_QUEUE) private readonly queue: PipelineQueue,
    private readonly sessions: ChainSessions,
    private readonly runStep: RunStep,
  ) {}

  async deliver(scope: EnvironmentScope, subscribers: Subscriber[], context: RecipientContext): Promise<void> {
    if (!subscribers.length) return;
    const built = subscribers.map((subscriber) => ({ subscriber, ...buildNotification(scope, subscriber, context) }));
    const vendorsHere = subscribers.length > 1;
    const sessions = await Promise.all(built.map(({ notification, jobs, subscriber }) => this.runFirstStep(notification, jobs, subscriber, vendorsHere)));
    const written = await this.sessions.flush(sessions);
    // A notification that existed (a redelivered fan-out) carries on from the store. The queue
    // deduplicates by job id, so nothing is added twice.
    const carryOn = built.flatMap(({ jobs: [first] }, index) => (!written[index] && first ? [stepJob(first.id, { jobId: first.id })] : []));
    if (carryOn.length) await this.queue.addBulk(STEPS_QUEUE, carryOn);
  }

  /**
   * Delivers to the subscribers `read` gives a batch at a time, the next batch read while the one
   * before it delivers (the store is busy with both at once). False when a cancel stopped it: a
   * cancel during a long fan-out stops the rest of it.
   */
  async deliverPaged(
    scope: EnvironmentScope,
    context: RecipientContext,
    read: (cursor: string | null) => Promise<{ subscribers: Subscriber[]; next: string | null }>,
  ): Promise<boolean> {
    let delivering: Promise<void> = Promise.resolve();
    let cursor: string | null = null;
    do {
      const batch = await read(cursor);
      cursor = batch.next;
      if (!batch.subscribers.length) continue;
      await delivering;
      if ((await this.triggers.findById(context.trigger.id))?.status === 'canceled') return false;
      delivering = this.deliver(scope, batch.subscribers, context);
      delivering.catch(() => undefined); // awaited above or below; this only keeps it from counting as unhandled meanwhile
    } while (cursor);
    await delivering;
    return true;
  }

  /**
   * The session of a new chain, its first step run against it unless it calls out (`vendorsHere`: but
   * for a vendor's step); the session's flush hands the step on.
   */
  private async runFirstStep(notification: Notification, jobs: Job[], subscriber: Subscriber, vendorsHere: boolean): Promise<ChainSession> {
    const [first] = jobs;
    const session = this.sessions.openNew(notification, jobs);
    if (!first) return session;
    if (callsOut(first.type) && !(vendorsHere && callsVendor(first.type))) {
      session.enqueue(stepJob(first.id, { jobId: first.id }));
      return session;
    }
    const attempt = firstAttempt();
    try {
      await this.runStep.runIn(session, { jobId: first.id, attempt }, subscriber);
      return session;
    } catch (error) {
      // The step's next attempt goes to the steps queue, which counts on from this one (a wait for the
      // vendor's pace spends none).
      const retryable = error instanceof RetryableJobError;
      if (!retryable) this.logger.error(`First step ${first.id} failed unexpectedly; it goes to the queue for another attempt: ${(error as Error).stack}`);
      const delayMs = retryable && error.retryAfterMs !== undefined ? error.retryAfterMs : PIPELINE_JOB_OPTIONS.backoff.delayMs;
      // A vendor step stored its chain before its call: that session carries on (what the step did, its
      // job back to queued). Otherwise the chain is written as built.
      const carrier = session.stored ? session : this.sessions.openNew(notification, jobs);
      carrier.enqueue(stepRetryJob(first.id, error instanceof DeferredJobError ? attempt : attempt.next(), delayMs));
      return carrier;
    }
  }
}
