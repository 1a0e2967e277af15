import { ThrottleDecision, ThrottleRequest, ThrottleWindowRepository } from '@app/delivery';
import { EnvironmentScope } from '@app/kernel';
import { isDuplicateKey } from '../mongo-errors';
import { COLLECTIONS, MongoStore } from '../mongo-store';

/**
 * A run's admission as one pipeline update of the key's document (every field computed from the
 * document before it): a window that ended, or none yet, is opened again with this job alone; an
 * open one takes the job unless it is in already or full. The job id goes in as $literal (a pipeline
 * would read a `$` string as a path).
 */
export function throttleAdmission(key: string, request: ThrottleRequest) {
  const jobIds = { $ifNull: ['$jobIds', []] };
  const ended = { $or: [{ $eq: [{ $ifNull: ['$endsAt', null] }, null] }, { $lte: ['$endsAt', request.at] }] };
  const keeps = { $or: [{ $in: [{ $literal: request.jobId }, jobIds] }, { $gte: [{ $size: jobIds }, request.threshold] }] };
  return [
    {
      $set: {
        throttleKey: { $literal: key },
        openedAt: { $cond: [ended, request.at, '$openedAt'] },
        endsAt: { $cond: [ended, request.endsAt, '$endsAt'] },
        jobIds: { $cond: [ended, { $literal: [request.jobId] }, { $cond: [keeps, jobIds, { $concatArrays: [jobIds, { $literal: [request.jobId] }] }] }] },
        updatedAt: '$$NOW',
      },
    },
  ];
}

/** The document of a key's window: environment and key together, as SQL's primary key. */
export function throttleWindowId(scope: EnvironmentScope, key: string): string {
  return JSON.stringify([scope.environmentId, key]);
}

/**
 * Throttle windows, one document per (environment, key): MongoDB applies each update to a document
 * atomically, so concurrent runs never interleave. Two runs creating the key's first window at once:
 * the loser's insert hits the `_id`, and its second try updates the winner's document.
 */
export class MongoThrottleWindowRepository implements ThrottleWindowRepository {
  constructor(private readonly store: MongoStore) {}

  private get windows() {
    return this.store.collection(COLLECTIONS.throttleWindows);
  }

  async admit(scope: EnvironmentScope, key: string, request: ThrottleRequest): Promise<ThrottleDecision> {
    for (let attempt = 0; ; attempt++) {
      try {
        const doc = await this.windows.findOneAndUpdate(
          { _id: throttleWindowId(scope, key), environmentId: scope.environmentId },
          throttleAdmission(key, request),
          {
            upsert: true,
            returnDocument: 'after',
          },
        );
        const jobIds = (doc!.jobIds ?? []) as string[];
        return { admitted: jobIds.includes(request.jobId), count: jobIds.length, openedAt: doc!.openedAt, endsAt: doc!.endsAt };
      } catch (error) {
        if (!isDuplicateKey(error) || attempt > 0) throw error;
      }
    }
  }

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const ended = await this.windows.find({ endsAt: { $lt: before } }, { sort: { endsAt: 1, _id: 1 }, limit, projection: { _id: 1 } }).toArray();
    if (ended.length === 0) return 0;
    // the condition again: a window a run has just opened anew stays
    return (await this.windows.deleteMany({ _id: { $in: ended.map((doc) => doc._id) }, endsAt: { $lt: before } })).deletedCount;
  }
}
