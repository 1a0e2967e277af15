import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import { AesGcmCredentialCipher } from '@app/integrations';
import { ensureIndexes, mongoRepositories, openMongoStore } from '@app/store-mongo';
import { MONGODB_SKIP_MARK } from './skip-marks';
import type { RepositoryStoreFixture } from './sql-stores';
import { uniqueName } from './test-env';

/** A MongoDB replica set the contract suites may use; none runs where this project's tests run. */
export const MONGODB_URL = process.env.MONGODB_URL;

/**
 * The MongoDB adapters on a database of their own (created with its indexes, dropped on close),
 * integration credentials under a random key; the store itself for suites that look at documents.
 */
export async function openMongoContractStore() {
  const dbName = uniqueName('contract');
  const store = await openMongoStore({ url: MONGODB_URL!, dbName, poolSize: 4 });
  await ensureIndexes(store);
  return {
    store,
    repositories: mongoRepositories(store, new AesGcmCredentialCipher(randomBytes(32))),
    async close() {
      await store.close();
      const connection = await mongoose.createConnection(MONGODB_URL!, { dbName }).asPromise();
      await connection.dropDatabase();
      await connection.close();
    },
  };
}

const MONGO_STORE: RepositoryStoreFixture = {
  name: 'MongoDB',
  async open() {
    const { repositories, close } = await openMongoContractStore();
    return { repositories, close };
  },
};

/**
 * Runs a port's contract suite against the MongoDB adapter wherever MONGODB_URL points at a
 * MongoDB replica set. Elsewhere the suite's tests are registered but skipped, their names saying
 * why, so the report lists each one as skipped rather than hiding it.
 */
export function describeMongoContract(port: string, suite: (store: RepositoryStoreFixture) => void): void {
  if (MONGODB_URL) describe(`${port} on MongoDB`, () => suite(MONGO_STORE));
  else describe.skip(`${port} on MongoDB ${MONGODB_SKIP_MARK}`, () => suite(MONGO_STORE));
}
