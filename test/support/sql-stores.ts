import { SqlClient, createSqlClient, migrate } from '@app/store-sql';
import { TEST_DATABASE_URL, uniqueName } from './test-app';

export interface StoreFixture {
  name: string;
  /** A fresh, migrated, empty store for one suite. */
  open(): Promise<SqlClient>;
}

/** The SQL stores every contract suite runs against. */
export const SQL_STORES: StoreFixture[] = [
  {
    name: 'PGlite',
    async open() {
      const client = await createSqlClient({});
      await migrate(client);
      return client;
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const client = await createSqlClient({ url: TEST_DATABASE_URL, schema: uniqueName('c'), poolSize: 4 });
      await migrate(client);
      return client;
    },
  },
];

/**
 * Contract suites call this once per port: the MongoDB adapter runs the same suite wherever
 * MONGODB_URL points at a server; here there is none, and the skip is stated in the test name.
 */
export function describeMongoContract(port: string, suite: () => void): void {
  if (process.env.MONGODB_URL) describe(`${port} on MongoDB`, suite);
  else describe.skip(`${port} on MongoDB — SKIPPED: MONGODB_URL is not set, no MongoDB server on this machine`, suite);
}
