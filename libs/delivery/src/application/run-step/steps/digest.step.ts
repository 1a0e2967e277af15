import { Inject, Injectable } from '@nestjs/common';
import { RetryableJobError } from '@app/kernel';
import { backoffWindowMs, digestBucketKey, digestWindow, isBackoffDigest } from '../../../domain/digest';
import { DETAIL } from '../../../domain/execution-detail';
import { stepMetadata } from '@app/workflows';
import { DigestMetadata } from '../../../domain/step-metadata';
import { stepJob } from '../../queues';
import { StepRecorder } from '../channels/step-recorder';
import { StepContext } from '../step-context';
import { StepHandler } from '../step-handler';
import { StepOutcome } from '../step-outcome';
import { DIGEST_BUCKET_REPOSITORY, DigestBucketRepository } from '../../../ports/digest-bucket.repository.port';

const MAX_DIGEST_RACE_ROUNDS = 10;

/**
 * A digest step: its event joins the open digest of its bucket (this job is merged: that digest's
 * master carries on), or opens one as master and waits for the window to close; the wake-up
 * closes it and hands every collected event to the steps after it. Merging is atomic in the
 * digest buckets, which other notifications' steps share: they are written at once, not with the
 * session (a rerun merges the same job's event once).
 */
@Injectable()
export class DigestStep implements StepHandler {
  constructor(
    private readonly recorder: StepRecorder,
    @Inject(DIGEST_BUCKET_REPOSITORY) private readonly buckets: DigestBucketRepository,
  ) {}

  async run(context: StepContext): Promise<StepOutcome> {
    const { scope, job, step, workflow, subscriber, now, session } = context;
    const metadata: DigestMetadata = stepMetadata(step, 'digest') ?? { type: 'regular' };
    const bucketKey = digestBucketKey(workflow.id, subscriber.id, metadata.digestKey, job.payload);
    const event = { jobId: job.id, notificationId: job.notificationId, payload: job.payload, at: now };
    const recent = isBackoffDigest(metadata)
      ? await this.buckets.hasRecentEvent(scope, bucketKey, new Date(now.getTime() - backoffWindowMs(metadata)))
      : undefined;
    // Merge into an open digest, or open one; the store decides atomically who is the master.
    for (let round = 0; round < MAX_DIGEST_RACE_ROUNDS; round++) {
      const open = await this.buckets.mergeIntoOpen(scope, bucketKey, event);
      if (open?.masterJobId === job.id) return this.waitFor(context, bucketKey, open.fireAt); // a redelivered master
      if (open) {
        session.transition(job.id, 'merged', { mergedDigestId: open.masterJobId, digestBucketKey: bucketKey });
        session.digestInto(open.masterNotificationId);
        this.recorder.detail(context, 'Success', DETAIL.DIGEST_MERGED, { raw: { masterJobId: open.masterJobId } });
        return { kind: 'merged' };
      }
      const window = digestWindow(metadata, { now, timezone: subscriber.timezone, overrides: job.overrides, recentEventInBackoffWindow: recent });
      if (window.action === 'skip') {
        // As Novu: the event is not digested, so the steps after it run at once with no digest events.
        await this.buckets.recordEvent(scope, bucketKey, now);
        session.transition(job.id, 'skipped');
        this.recorder.detail(context, 'Success', DETAIL.DIGEST_SKIPPED);
        return { kind: 'ended' };
      }
      if (await this.buckets.openAsMaster(scope, bucketKey, job.id, event, window.fireAt)) return this.waitFor(context, bucketKey, window.fireAt);
    }
    throw new RetryableJobError('Digest bucket stayed contended');
  }

  async wake(context: StepContext): Promise<StepOutcome> {
    const { scope, job, session } = context;
    const events = (await this.buckets.close(scope, job.digestBucketKey!, job.id)) ?? [];
    const payloads = events.map((event) => event.payload);
    session.transition(job.id, 'completed', { digest: { ...job.digest, events: payloads } });
    this.recorder.detail(context, 'Success', DETAIL.DIGEST_TRIGGERED_EVENTS, { raw: payloads });
    return { kind: 'ended', digestEvents: payloads };
  }

  private async waitFor(context: StepContext, bucketKey: string, fireAt: Date): Promise<StepOutcome> {
    const { job, session } = context;
    session.transition(job.id, 'delayed', { runAt: fireAt, digestBucketKey: bucketKey });
    this.recorder.detail(context, 'Pending', DETAIL.STEP_DIGESTED, { raw: { fireAt: fireAt.toISOString(), bucketKey } });
    session.enqueue(stepJob(`${job.id}:wake`, { jobId: job.id, phase: 'wake' }, Math.max(0, fireAt.getTime() - this.recorder.now().getTime())));
    return { kind: 'waiting' };
  }
}
