import { cpSync } from 'node:fs';
import { createSqlClient, migrate } from '@app/store-sql';
import { madeOnce, scratchDir } from './test-run';

/**
 * PGlite data directories, each a copy of one made once per test run. A new PGlite runs initdb, seconds of
 * CPU at every store a test opens; opening a copy costs a fraction of one. The run's one initdb makes the
 * empty template; the migrated one is a copy of it with the migrations applied.
 */
function emptyTemplate(): Promise<string> {
  return madeOnce('pglite-empty', async (dir) => {
    const client = await createSqlClient({ dataDir: dir });
    await client.close();
  });
}

function copyOf(template: string): string {
  const dataDir = scratchDir('pglite');
  cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

/** A new PGlite data directory, initialised but without any migration: the tests of the migrations start here. */
export async function emptyPgliteDir(): Promise<string> {
  return copyOf(await emptyTemplate());
}

/**
 * A new PGlite data directory, initialised and migrated. The app still runs its migrations at start (none is
 * left to apply). A first start of the built service on a fresh DATA_DIR still starts from nothing.
 */
export async function migratedPgliteDir(): Promise<string> {
  const template = await madeOnce('pglite-template', async (dir) => {
    cpSync(await emptyTemplate(), dir, { recursive: true });
    const client = await createSqlClient({ dataDir: dir });
    try {
      await migrate(client);
    } finally {
      await client.close();
    }
  });
  return copyOf(template);
}
