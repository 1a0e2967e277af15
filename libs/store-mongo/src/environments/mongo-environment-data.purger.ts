import { EnvironmentDataPurger } from '@app/environments';
import { COLLECTIONS, MongoStore } from '../mongo-store';

/** Collections whose documents carry no `environmentId` of their own (their records are the environment's parents, or the store's). */
const UNSCOPED = new Set<string>([
  COLLECTIONS.storeLocks,
  COLLECTIONS.systemClaims,
  COLLECTIONS.organizations,
  COLLECTIONS.environments,
  COLLECTIONS.environmentVariables,
]);

/**
 * Every collection the adapter writes (COLLECTIONS) but the unscoped ones: the documents with the
 * environment's `environmentId`. An environment variable belongs to the organization: only its
 * value of the environment goes.
 */
export class MongoEnvironmentDataPurger implements EnvironmentDataPurger {
  constructor(private readonly store: MongoStore) {}

  async purge(environmentId: string): Promise<number> {
    const field = `values.${environmentId}`;
    let removed = (await this.store.collection(COLLECTIONS.environmentVariables).updateMany({ [field]: { $exists: true } }, { $unset: { [field]: '' } }))
      .modifiedCount;
    for (const name of Object.values(COLLECTIONS)) {
      if (UNSCOPED.has(name)) continue;
      removed += (await this.store.collection(name).deleteMany({ environmentId })).deletedCount;
    }
    return removed;
  }
}
