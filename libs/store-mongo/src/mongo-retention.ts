import { UNFINISHED_JOB_STATUSES } from '@app/delivery';
import { mongo } from 'mongoose';
import { allOf } from './mongo-cursor-page';
import { Doc } from './mongo-documents';
import { COLLECTIONS, MongoStore } from './mongo-store';

/** How many candidates one round reads while it looks for deletable records. */
const SCAN_BATCH = 500;

/** Records created before `before` matching `condition`, oldest first (the created index finds them), after `from`. */
export function oldestFilter(before: Date, condition: mongo.Filter<Doc>, from?: { createdAt: Date; _id: string }): mongo.Filter<Doc> {
  const after = from ? { $or: [{ createdAt: { $gt: from.createdAt } }, { createdAt: from.createdAt, _id: { $gt: from._id } }] } : {};
  return allOf({ createdAt: { $lt: before } }, condition, after);
}

/**
 * Retention: deletes up to `limit` records of the collection created before `before` for which
 * `condition` holds (and, when given, `eligible` keeps), oldest first; answers how many went.
 * Selected then deleted, each by id with the condition again: what a concurrent purger took
 * first is not counted twice, and a record that stopped matching stays.
 */
export async function deleteOldest(
  collection: mongo.Collection<Doc>,
  before: Date,
  limit: number,
  condition: mongo.Filter<Doc> = {},
  eligible?: (docs: Doc[]) => Promise<Doc[]>,
): Promise<number> {
  if (limit <= 0) return 0;
  const chosen: string[] = [];
  let from: { createdAt: Date; _id: string } | undefined;
  while (chosen.length < limit) {
    const batch = eligible ? Math.max(limit, SCAN_BATCH) : limit;
    const docs = await collection
      .find(oldestFilter(before, condition, from), { sort: { createdAt: 1, _id: 1 }, limit: batch, projection: { _id: 1, createdAt: 1, notificationId: 1 } })
      .toArray();
    const kept = eligible ? await eligible(docs) : docs;
    chosen.push(...kept.slice(0, limit - chosen.length).map((doc) => doc._id as string));
    if (docs.length < batch) break;
    from = { createdAt: docs[docs.length - 1].createdAt, _id: docs[docs.length - 1]._id };
  }
  if (chosen.length === 0) return 0;
  return (await collection.deleteMany(allOf({ _id: { $in: chosen } }, condition))).deletedCount;
}

/**
 * The records (notifications by `_id`, the others by `notificationId`) whose notification has no
 * unfinished job. That condition only ever turns false to true (a finished job never changes, and
 * a notification gets no job after it is written), so selecting then deleting is safe.
 */
export function ofFinishedNotifications(store: MongoStore, notificationIdField: '_id' | 'notificationId') {
  return async (docs: Doc[]): Promise<Doc[]> => {
    if (docs.length === 0) return docs;
    const ids = [...new Set(docs.map((doc) => doc[notificationIdField] as string))];
    const busy = new Set(
      (await store
        .collection(COLLECTIONS.jobs)
        .distinct('notificationId', { notificationId: { $in: ids }, status: { $in: [...UNFINISHED_JOB_STATUSES] } })) as string[],
    );
    return docs.filter((doc) => !busy.has(doc[notificationIdField]));
  };
}
