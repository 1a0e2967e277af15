import { randomBytes } from 'node:crypto';
import type { ClaimedJob, JobCounts, JobState, NewJob, QueueJobStore } from '@app/kernel';
import { Doc } from '../mongo-documents';
import { fromStoredJson, toStoredJson } from '../mongo-json';
import { COLLECTIONS, MongoStore } from '../mongo-store';
import { insertManyUnlessDuplicate } from '../mongo-writes';

const after = (now: Date, ms: number) => new Date(now.getTime() + ms);
const STALLED_ERROR = 'job stalled more than allowable limit';

/** A new job's document; `_id` is left to the driver (an ObjectId, increasing within a process): it orders jobs due together. */
export function queueJobDocument(queue: string, job: NewJob<unknown>, now: Date): Doc {
  return {
    queue,
    id: job.id,
    data: toStoredJson(job.data ?? null),
    state: 'pending',
    runAt: after(now, Math.max(0, job.delayMs ?? 0)),
    attempts: Math.max(1, Math.floor(job.attempts ?? 1)),
    attemptsMade: 0,
    stalledCount: 0,
    backoffMs: Math.max(0, Math.round(job.backoff?.delayMs ?? 0)),
    createdAt: now,
  };
}

/** A job's state as the queue reports it: a pending job due later is `delayed`, one due now `waiting`. */
export function reportedState(doc: Doc, now: Date): JobState {
  if (doc.state !== 'pending') return doc.state;
  return doc.runAt > now ? 'delayed' : 'waiting';
}

/**
 * Lease-expired active jobs (or, with `liveConsumers`, every lease not held by one of them) back to
 * pending, or failed once stalled more than `maxStalledCount` times: one pipeline update.
 */
export function requeueStalledWrite(queue: string, maxStalledCount: number, now: Date, liveConsumers?: string[]) {
  const tooMany = { $gt: ['$stalledCount', maxStalledCount] };
  return {
    filter: { queue, state: 'active', $or: [{ lockedUntil: { $lt: now } }, ...(liveConsumers ? [{ lockedBy: { $nin: liveConsumers } }] : [])] },
    update: [
      { $set: { stalledCount: { $add: [{ $ifNull: ['$stalledCount', 0] }, 1] } } },
      {
        $set: {
          state: { $cond: [tooMany, 'failed', 'pending'] },
          finishedAt: { $cond: [tooMany, now, '$$REMOVE'] },
          lastError: { $cond: [tooMany, { $literal: STALLED_ERROR }, '$lastError'] },
          lockedBy: '$$REMOVE',
          lockedUntil: '$$REMOVE',
        },
      },
    ],
  };
}

/**
 * The embedded queue's jobs in MongoDB (the one-process mode without Redis, or several processes
 * sharing the store). Times come from the process clock, as Bull's delays do: processes sharing a
 * store keep their clocks in sync. A claim picks due jobs, takes them with one conditional
 * updateMany tagged with its own token, and reads back what it took: consumers in several
 * processes never take the same job. Outcomes apply only while the consumer holds the lease.
 */
export class MongoQueueJobStore implements QueueJobStore {
  readonly heldByOneProcess = false;

  constructor(private readonly store: MongoStore) {}

  private get jobs() {
    return this.store.collection(COLLECTIONS.queueJobs);
  }

  async insert(queue: string, jobs: NewJob<unknown>[]): Promise<void> {
    const now = new Date();
    // an id the queue still holds is skipped by the (queue, id) unique index
    await insertManyUnlessDuplicate(this.jobs, jobs.map((job) => queueJobDocument(queue, job, now)) as { _id: string }[]);
  }

  async claim(queue: string, consumerId: string, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    const now = new Date();
    const due = await this.jobs
      .find({ queue, state: 'pending', runAt: { $lte: now } }, { sort: { runAt: 1, _id: 1 }, limit, projection: { _id: 1 } })
      .toArray();
    if (due.length === 0) return [];
    const token = randomBytes(12).toString('hex');
    await this.jobs.updateMany(
      { _id: { $in: due.map((doc) => doc._id) }, state: 'pending', runAt: { $lte: now } },
      { $set: { state: 'active', lockedBy: consumerId, lockedUntil: after(now, leaseMs), claimToken: token } },
    );
    const claimed = await this.jobs.find({ queue, claimToken: token, state: 'active' }, { sort: { runAt: 1, _id: 1 } }).toArray();
    return claimed.map((doc) => ({
      id: doc.id,
      data: fromStoredJson(doc.data),
      attempts: doc.attempts,
      attemptsMade: doc.attemptsMade,
      backoffMs: doc.backoffMs,
    }));
  }

  async complete(queue: string, id: string, consumerId: string): Promise<void> {
    await this.jobs.updateOne(this.leased(queue, id, consumerId), {
      $set: { state: 'completed', finishedAt: new Date() },
      $unset: { lockedBy: '', lockedUntil: '' },
    });
  }

  async retry(queue: string, id: string, consumerId: string, delayMs: number, error: string, spendsAttempt = true): Promise<void> {
    await this.jobs.updateOne(this.leased(queue, id, consumerId), {
      $set: { state: 'pending', runAt: after(new Date(), delayMs), lastError: error },
      $inc: { attemptsMade: spendsAttempt ? 1 : 0 },
      $unset: { lockedBy: '', lockedUntil: '' },
    });
  }

  async fail(queue: string, id: string, consumerId: string, error: string): Promise<void> {
    await this.jobs.updateOne(this.leased(queue, id, consumerId), {
      $set: { state: 'failed', finishedAt: new Date(), lastError: error },
      $inc: { attemptsMade: 1 },
      $unset: { lockedBy: '', lockedUntil: '' },
    });
  }

  async renewLeases(consumerId: string, leaseMs: number): Promise<void> {
    await this.jobs.updateMany({ state: 'active', lockedBy: consumerId }, { $set: { lockedUntil: after(new Date(), leaseMs) } });
  }

  async requeueStalled(queue: string, maxStalledCount: number, liveConsumers?: string[]): Promise<number> {
    const { filter, update } = requeueStalledWrite(queue, maxStalledCount, new Date(), liveConsumers);
    return (await this.jobs.updateMany(filter, update)).modifiedCount;
  }

  async remove(queue: string, id: string): Promise<boolean> {
    const result = await this.jobs.deleteOne({ queue, id, $nor: [{ state: 'active', lockedUntil: { $gte: new Date() } }] });
    return result.deletedCount > 0;
  }

  async state(queue: string, id: string): Promise<JobState | undefined> {
    const doc = await this.jobs.findOne({ queue, id }, { projection: { state: 1, runAt: 1 } });
    return doc ? reportedState(doc, new Date()) : undefined;
  }

  async counts(queue: string): Promise<JobCounts> {
    const now = new Date();
    const groups = await this.jobs
      .aggregate<{ _id: JobState; n: number }>([
        { $match: { queue } },
        { $group: { _id: { $cond: [{ $eq: ['$state', 'pending'] }, { $cond: [{ $gt: ['$runAt', now] }, 'delayed', 'waiting'] }, '$state'] }, n: { $sum: 1 } } },
      ])
      .toArray();
    const counts: JobCounts = { waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 };
    for (const group of groups) counts[group._id] = group.n;
    return counts;
  }

  async oldestWaitingAgeMs(queue: string): Promise<number | undefined> {
    const now = new Date();
    const doc = await this.jobs.findOne({ queue, state: 'pending', runAt: { $lte: now } }, { sort: { runAt: 1 }, projection: { runAt: 1 } });
    return doc ? now.getTime() - doc.runAt.getTime() : undefined;
  }

  async msUntilNextDue(queue: string): Promise<number | undefined> {
    const doc = await this.jobs.findOne({ queue, state: 'pending' }, { sort: { runAt: 1 }, projection: { runAt: 1 } });
    return doc ? doc.runAt.getTime() - Date.now() : undefined;
  }

  async purgeFinished(queue: string, completedMs: number, failedMs: number): Promise<void> {
    const now = Date.now();
    await this.jobs.deleteMany({
      queue,
      $or: [
        { state: 'completed', finishedAt: { $lt: new Date(now - completedMs) } },
        { state: 'failed', finishedAt: { $lt: new Date(now - failedMs) } },
      ],
    });
  }

  private leased(queue: string, id: string, consumerId: string) {
    return { queue, id, state: 'active', lockedBy: consumerId };
  }
}
