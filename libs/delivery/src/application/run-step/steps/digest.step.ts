import { Injectable } from '@nestjs/common';
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

const MAX_DIGEST_RACE_ROUNDS = 10;

/**
 * A digest step: its event joins the open digest of its bucket (this job is merged: that digest's
 * master carries on), or opens one as master and waits for the window to close; the wake-up
 * closes it and hands every collected event to the steps after it. Merging is atomic in the
 * digest buckets, shared by other notifications' steps, so it needs the store's StepWrites.
 */
@Injectable()
export class DigestStep implements StepHandler {
  constructor(private readonly recorder: StepRecorder) {}

  async run(context: StepContext): Promise<StepOutcome> {
    const { scope, job, step, workflow, subscriber, now, writes } = context;
    const metadata: DigestMetadata = stepMetadata(step, 'digest') ?? { type: 'regular' };
    const bucketKey = digestBucketKey(workflow.id, subscriber.id, metadata.digestKey, job.payload);
    const event = { jobId: job.id, notificationId: job.notificationId, payload: job.payload, at: now };
    const recent = isBackoffDigest(metadata)
      ? await writes.hasRecentDigestEvent(scope, bucketKey, new Date(now.getTime() - backoffWindowMs(metadata)))
      : undefined;
    // Merge into an open digest, or open one; the store decides atomically who is the master.
    for (let round = 0; round < MAX_DIGEST_RACE_ROUNDS; round++) {
      const open = await writes.mergeIntoDigest(scope, bucketKey, event);
      if (open?.masterJobId === job.id) return this.waitFor(context, bucketKey, open.fireAt); // a redelivered master
      if (open) {
        await writes.transition(job.id, 'merged', { mergedDigestId: open.masterJobId, digestBucketKey: bucketKey });
        await writes.setDigestedNotification(job.notificationId, open.masterNotificationId);
        await this.recorder.detail(context, 'Success', DETAIL.DIGEST_MERGED, { raw: { masterJobId: open.masterJobId } });
        return { kind: 'merged' };
      }
      const window = digestWindow(metadata, { now, timezone: subscriber.timezone, overrides: job.overrides, recentEventInBackoffWindow: recent });
      if (window.action === 'skip') {
        // As Novu: the event is not digested, so the steps after it run at once with no digest events.
        await writes.recordDigestEvent(scope, bucketKey, now);
        await writes.transition(job.id, 'skipped');
        await this.recorder.detail(context, 'Success', DETAIL.DIGEST_SKIPPED);
        return { kind: 'ended' };
      }
      if (await writes.openDigest(scope, bucketKey, job.id, event, window.fireAt)) return this.waitFor(context, bucketKey, window.fireAt);
    }
    throw new RetryableJobError('Digest bucket stayed contended');
  }

  async wake(context: StepContext): Promise<StepOutcome> {
    const { scope, job, writes } = context;
    const events = (await writes.closeDigest(scope, job.digestBucketKey!, job.id)) ?? [];
    const payloads = events.map((event) => event.payload);
    await writes.transition(job.id, 'completed', { digest: { ...job.digest, events: payloads } });
    await this.recorder.detail(context, 'Success', DETAIL.DIGEST_TRIGGERED_EVENTS, { raw: payloads });
    return { kind: 'ended', digestEvents: payloads };
  }

  private async waitFor(context: StepContext, bucketKey: string, fireAt: Date): Promise<StepOutcome> {
    const { job, writes } = context;
    await writes.transition(job.id, 'delayed', { runAt: fireAt, digestBucketKey: bucketKey });
    await this.recorder.detail(context, 'Pending', DETAIL.STEP_DIGESTED, { raw: { fireAt: fireAt.toISOString(), bucketKey } });
    await writes.enqueue(stepJob(`${job.id}:wake`, { jobId: job.id, phase: 'wake' }, Math.max(0, fireAt.getTime() - this.recorder.now().getTime())));
    return { kind: 'waiting' };
  }
}
