import { randomBytes } from 'node:crypto';
import { CANCELABLE_JOB_STATUSES, Job, JobRepository, JobStatus, inChainOrder } from '@app/delivery';
import { EnvironmentScope } from '@app/kernel';
import { mongo } from 'mongoose';
import { Doc } from '../mongo-documents';
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

  async cancelPendingByTransaction(scope: EnvironmentScope, transactionId: string, at?: Date): Promise<Job[]> {
    const docs = await this.moveMany(
      { environmentId: scope.environmentId, organizationId: scope.organizationId, transactionId, status: { $in: [...CANCELABLE_JOB_STATUSES] } },
      'canceled',
      at,
    );
    return docs.map((doc) => jobDocuments.toDomain(doc));
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

  deleteOlderThan(before: Date, limit: number): Promise<number> {
    return deleteOldest(this.jobs, before, limit, {}, ofFinishedNotifications(this.store, 'notificationId'));
  }

  /** Moves every job matching `filter` to `status` in one write, and reads back the ones this call moved, oldest first. */
  private async moveMany(filter: mongo.Filter<Doc>, status: JobStatus, at?: Date): Promise<mongo.WithId<Doc>[]> {
    const token = newToken();
    const moved = await this.jobs.updateMany(filter, stamped(at, { status, [WRITE_TOKEN]: token }));
    if (moved.modifiedCount === 0) return [];
    return this.jobs.find({ ...filter, status, [WRITE_TOKEN]: token }, { sort: { createdAt: 1, _id: 1 } }).toArray();
  }
}
