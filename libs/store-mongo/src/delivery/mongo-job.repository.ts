import { randomBytes } from 'node:crypto';
import {
  CANCELABLE_JOB_STATUSES,
  EndedChildStatus,
  JOB_PATCH_FIELDS,
  Job,
  JobPatch,
  JobRepository,
  JobStatus,
  REQUIRED_JOB_PATCH_FIELDS,
  inChainOrder,
  jobStatusesAllowing,
  jobsAfter,
} from '@app/delivery';
import { EnvironmentScope, StoreRejectedError } from '@app/kernel';
import { mongo } from 'mongoose';
import { Doc, updateOf } from '../mongo-documents';
import { toStoredJson } from '../mongo-json';
import { deleteOldest, ofFinishedNotifications } from '../mongo-retention';
import { COLLECTIONS, MongoStore } from '../mongo-store';
import { jobDocuments } from './delivery-documents';

/**
 * Writes that change many jobs at once and must answer which ones they changed tag them with a
 * token of their own (updateMany returns counts, not documents), then read them back by it.
 */
const WRITE_TOKEN = 'writeToken';
const newToken = () => randomBytes(12).toString('hex');

/** The time of a move: the given one, or the server's clock. */
const stamped = (at: Date | undefined, $set: Doc) => (at ? { $set: { ...$set, updatedAt: at } } : { $set, $currentDate: { updatedAt: true as const } });

/**
 * A transition as one conditional update: the status moves to `to` only from a status that allows
 * it (compare-and-set), with the patch applied (null unsets), and updatedAt from the patch or the
 * server's clock.
 */
export function jobTransition(id: string, to: JobStatus, patch: JobPatch) {
  const $set: Doc = { status: to };
  const $unset: Doc = {};
  for (const field of JOB_PATCH_FIELDS) {
    const value = patch[field];
    // no updatedAt (or a null one): the server's clock
    if (value === undefined || (field === 'updatedAt' && value === null)) continue;
    if (value === null) {
      if (REQUIRED_JOB_PATCH_FIELDS.includes(field)) throw new StoreRejectedError(`mongo store: jobs.transition: ${field} cannot be null`, 'not_null');
      $unset[field] = '';
    } else {
      $set[field] = jobDocuments.field(field, value);
    }
  }
  const moveTime = patch.updatedAt ? {} : { updatedAt: true as const };
  return {
    filter: { _id: id, status: { $in: jobStatusesAllowing(to) } },
    update: updateOf({ $set, $unset, $currentDate: moveTime }),
  };
}

/** JobRepository on MongoDB: every status change a conditional update on the status (compare-and-set). */
export class MongoJobRepository implements JobRepository {
  constructor(private readonly store: MongoStore) {}

  private get jobs() {
    return this.store.collection(COLLECTIONS.jobs);
  }

  async findById(id: string): Promise<Job | null> {
    const doc = await this.jobs.findOne({ _id: id });
    return doc ? jobDocuments.toDomain(doc) : null;
  }

  async findChain(jobId: string): Promise<Job[]> {
    const lead = await this.jobs.findOne({ _id: jobId }, { projection: { notificationId: 1 } });
    if (!lead) return [];
    const docs = await this.jobs.find({ notificationId: lead.notificationId }, { sort: { createdAt: 1, _id: 1 } }).toArray();
    return inChainOrder(docs.map((doc) => jobDocuments.toDomain(doc)));
  }

  async findByNotificationIds(scope: EnvironmentScope, notificationIds: string[]): Promise<Job[]> {
    if (notificationIds.length === 0) return [];
    const docs = await this.jobs
      .find(
        { notificationId: { $in: notificationIds }, environmentId: scope.environmentId, organizationId: scope.organizationId },
        { sort: { notificationId: 1, createdAt: 1, _id: 1 } },
      )
      .toArray();
    return inChainOrder(docs.map((doc) => jobDocuments.toDomain(doc)));
  }

  async transition(id: string, to: JobStatus, patch: JobPatch = {}): Promise<boolean> {
    if (jobStatusesAllowing(to).length === 0) return false;
    const { filter, update } = jobTransition(id, to, patch);
    return (await this.jobs.updateOne(filter, update)).matchedCount === 1;
  }

  async cancelPendingByTransaction(scope: EnvironmentScope, transactionId: string, at?: Date): Promise<Job[]> {
    const docs = await this.moveMany(
      { environmentId: scope.environmentId, organizationId: scope.organizationId, transactionId, status: { $in: [...CANCELABLE_JOB_STATUSES] } },
      'canceled',
      at,
    );
    return docs.map((doc) => jobDocuments.toDomain(doc));
  }

  async cancelChildren(notificationId: string, afterJobId?: string, at?: Date, status: EndedChildStatus = 'canceled'): Promise<string[]> {
    let scope: mongo.Filter<Doc> = { notificationId };
    if (afterJobId !== undefined) {
      // the jobs after afterJobId: follow parentId links down the chain (a notification's jobs are written together)
      const chain = await this.jobs.find({ notificationId }, { projection: { _id: 1, parentId: 1 } }).toArray();
      const after = jobsAfter(
        chain.map((doc) => ({ id: doc._id, parentId: doc.parentId as string | undefined })),
        afterJobId,
      );
      scope = { notificationId, _id: { $in: after.map((job) => job.id) } };
    }
    const docs = await this.moveMany({ ...scope, status: { $in: [...CANCELABLE_JOB_STATUSES] } }, status, at);
    return docs.map((doc) => doc._id);
  }

  async findOverdue(before: Date, limit: number): Promise<Job[]> {
    const docs = await this.jobs
      .find(
        {
          $or: [
            { status: { $in: ['queued', 'running'] }, updatedAt: { $lt: before } },
            { status: 'delayed', runAt: { $lt: before } },
          ],
        },
        { sort: { updatedAt: 1, _id: 1 }, limit: Math.max(limit, 0) },
      )
      .toArray();
    return docs.map((doc) => jobDocuments.toDomain(doc));
  }

  async findNextJob(parentId: string): Promise<Job | null> {
    const doc = await this.jobs.findOne({ parentId }, { sort: { createdAt: 1, _id: 1 } });
    return doc ? jobDocuments.toDomain(doc) : null;
  }

  async queueNext(parentId: string, digestEvents?: Record<string, unknown>[]): Promise<Job | null> {
    const events = digestEvents ? { 'digest.events': toStoredJson(digestEvents) } : {};
    const [next] = await this.moveMany({ parentId, status: 'pending' }, 'queued', undefined, events);
    return next ? jobDocuments.toDomain(next) : null;
  }

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.jobs, before, limit, {}, ofFinishedNotifications(this.store, 'notificationId'));
  }

  /** Moves every job matching `filter` to `status` in one write, and reads back the ones this call moved, oldest first. */
  private async moveMany(filter: mongo.Filter<Doc>, status: JobStatus, at?: Date, extra: Doc = {}): Promise<mongo.WithId<Doc>[]> {
    const token = newToken();
    const moved = await this.jobs.updateMany(filter, stamped(at, { status, ...extra, [WRITE_TOKEN]: token }));
    if (moved.modifiedCount === 0) return [];
    return this.jobs.find({ ...filter, status, [WRITE_TOKEN]: token }, { sort: { createdAt: 1, _id: 1 } }).toArray();
  }
}
