import { cpSync } from 'node:fs';
import { createSqlClient, migrate } from '@app/store-sql';
import { madeOnce, scratchDir } from './test-run';

/**
 * A new PGlite data directory, initialised and migrated: a copy of one made once per test run. A new
 * PGlite runs initdb, seconds of CPU at every store a test opens; opening a copy costs a fraction of
 * one. The app still runs its migrations at start (none is left to apply). Tests of the migrations
 * and of a first start (the migrator contract, the built service on a fresh DATA_DIR) start empty.
 */
export async function migratedPgliteDir(): Promise<string> {
  const template = await madeOnce('pglite-template', async (dir) => {
    const client = await createSqlClient({ dataDir: dir });
    try {
      await migrate(client);
    } finally {
      await client.close();
    }
  });
  const dataDir = scratchDir('pglite');
  cpSync(template, dataDir, { recursive: true });
  return dataDir;
}
