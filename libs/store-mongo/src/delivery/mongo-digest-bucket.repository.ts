import { DigestBucketRepository, DigestEvent, OpenDigest } from '@app/delivery';
import { EnvironmentScope } from '@app/kernel';
import { Doc } from '../mongo-documents';
import { isDuplicateKey } from '../mongo-errors';
import { COLLECTIONS, MongoStore } from '../mongo-store';
import { upsertOne } from '../mongo-writes';
import { digestEventDocuments } from './delivery-documents';

/**
 * The merge of an event into an open digest, as one pipeline update: appended unless its job is
 * in already (a redelivery), the latest event time kept. The event goes in as $literal (a pipeline
 * would read a `$` string as a path).
 */
export function digestMerge(event: DigestEvent) {
  const events = { $ifNull: ['$events', []] };
  return [
    {
      $set: {
        events: {
          $cond: [
            { $in: [{ $literal: event.jobId }, { $ifNull: ['$events.jobId', []] }] },
            events,
            { $concatArrays: [events, [{ $literal: digestEventDocuments.toDocument(event) }]] },
          ],
        },
        lastEventAt: { $max: ['$lastEventAt', event.at] },
        updatedAt: '$$NOW',
      },
    },
  ];
}

/** Opening the bucket: a closed one is reopened (next generation) with this master and its event first; an open one is not matched. */
export function digestOpen(masterJobId: string, masterEvent: DigestEvent, fireAt: Date) {
  return {
    $set: { status: 'open', masterJobId, masterNotificationId: masterEvent.notificationId, events: [digestEventDocuments.toDocument(masterEvent)], fireAt },
    $inc: { generation: 1 },
    $max: { lastEventAt: masterEvent.at },
    $currentDate: { updatedAt: true as const },
  };
}

/**
 * Digest buckets as single conditional writes, one document per (environment, bucket key):
 * MongoDB applies each write to a document atomically, so a merge, an open and a close of one
 * bucket never interleave.
 */
export class MongoDigestBucketRepository implements DigestBucketRepository {
  constructor(private readonly store: MongoStore) {}

  private get buckets() {
    return this.store.collection(COLLECTIONS.digestBuckets);
  }

  async mergeIntoOpen(scope: EnvironmentScope, bucketKey: string, event: DigestEvent): Promise<OpenDigest | null> {
    const doc = await this.buckets.findOneAndUpdate({ environmentId: scope.environmentId, bucketKey, status: 'open' }, digestMerge(event), {
      returnDocument: 'after',
      projection: { masterJobId: 1, masterNotificationId: 1, fireAt: 1 },
    });
    return doc ? { masterJobId: doc.masterJobId, masterNotificationId: doc.masterNotificationId, fireAt: doc.fireAt } : null;
  }

  async openAsMaster(scope: EnvironmentScope, bucketKey: string, masterJobId: string, masterEvent: DigestEvent, fireAt: Date): Promise<boolean> {
    try {
      // an open bucket does not match: the upsert's insert then hits the unique index
      await this.buckets.updateOne({ environmentId: scope.environmentId, bucketKey, status: 'closed' }, digestOpen(masterJobId, masterEvent, fireAt), {
        upsert: true,
      });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async close(scope: EnvironmentScope, bucketKey: string, masterJobId: string): Promise<DigestEvent[] | null> {
    // closing again under the same master (a redelivered fire) returns the same events until the bucket reopens
    const doc = await this.buckets.findOneAndUpdate(
      { environmentId: scope.environmentId, bucketKey, masterJobId },
      { $set: { status: 'closed' }, $currentDate: { updatedAt: true } },
      { returnDocument: 'after', projection: { events: 1 } },
    );
    return doc ? ((doc.events ?? []) as unknown[]).map((event) => digestEventDocuments.toDomain(event as Doc)) : null;
  }

  async recordEvent(scope: EnvironmentScope, bucketKey: string, at: Date): Promise<void> {
    await upsertOne(
      this.buckets,
      { environmentId: scope.environmentId, bucketKey },
      { $setOnInsert: { status: 'closed', generation: 0 }, $max: { lastEventAt: at }, $currentDate: { updatedAt: true } },
    );
  }

  async hasRecentEvent(scope: EnvironmentScope, bucketKey: string, since: Date): Promise<boolean> {
    return (await this.buckets.findOne({ environmentId: scope.environmentId, bucketKey, lastEventAt: { $gte: since } }, { projection: { _id: 1 } })) !== null;
  }
}
