import { SqlClient } from './sql-client';
import { MIGRATIONS } from './migrations';
import { sql } from './sql-statement';
import type { Migration } from './migrations/migration';

export type { Migration } from './migrations/migration';

// Arbitrary constant: serialises migrations when several processes start at once.
const MIGRATION_LOCK = 727_364_001;

/** Applies every migration not yet recorded, in version order, each exactly once. */
export function migrate(sqlClient: SqlClient, migrations: Migration[] = MIGRATIONS): Promise<number[]> {
  return sqlClient.session((client) => migrateOnSession(client, migrations));
}

/** How often a process waiting for another's migrations asks for the lock again. */
const LOCK_POLL_MS = 100;

async function migrateOnSession(client: SqlClient, migrations: Migration[]): Promise<number[]> {
  // Polled, not awaited in pg_advisory_lock: a statement waiting there holds a snapshot, and CREATE INDEX
  // CONCURRENTLY in the process holding the lock waits for every older snapshot (a deadlock).
  while (!(await client.query<{ taken: boolean }>(sql`SELECT pg_try_advisory_lock(${MIGRATION_LOCK}) AS taken`))[0].taken) {
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
  try {
    await client.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version));
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.online ?? []) await client.exec(statement);
      await client.exec(
        `BEGIN;\n${migration.sql}\n;INSERT INTO schema_migrations (version, name) VALUES (${migration.version}, '${migration.name}');\nCOMMIT;`,
      );
      applied.push(migration.version);
    }
    return applied;
  } finally {
    await client.query(sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
  }
}
