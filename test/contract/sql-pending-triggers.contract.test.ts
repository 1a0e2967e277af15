import { SqlClient, createSqlClient, migrate } from '@app/store-sql';
import { SqlTriggerRepository } from '../../libs/store-sql/src/delivery';
import { MIGRATIONS } from '../../libs/store-sql/src/migrations';
import { emptyPgliteDir } from '../support/pglite-template';
import { TEST_DATABASE_URL, uniqueName } from '../support/test-env';

// Migration 26 lists accepted triggers in triggers_pending instead of indexing triggers.status, so that
// the fan-out's status change is a heap-only update. An existing store keeps its accepted triggers
// for the reconciler, and no index of triggers reads what that change writes.
const stores: { name: string; open(): Promise<SqlClient> }[] = [
  { name: 'PGlite', open: async () => createSqlClient({ dataDir: await emptyPgliteDir() }) },
  { name: 'PostgreSQL', open: () => createSqlClient({ url: TEST_DATABASE_URL, schema: uniqueName('c'), poolSize: 2 }) },
];

describe.each(stores)('accepted triggers listed apart (migration 26) on $name', (store) => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await store.open();
    await migrate(
      sql,
      MIGRATIONS.filter((migration) => migration.version < 26),
    );
    const insert = `INSERT INTO triggers (id, organization_id, environment_id, transaction_id, workflow_id, workflow_identifier, recipients, payload, overrides, status, created_at, updated_at)
      VALUES ($1, 'o', 'e', $1, 'w', 'w', '[]', '{}', '{}', $2, '2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z')`;
    await sql.query(insert, ['t-accepted', 'accepted']);
    await sql.query(insert, ['t-processed', 'processed']);
    await migrate(sql);
  });
  afterAll(() => sql.close());

  it('keeps the accepted triggers of an existing store for the reconciler', async () => {
    const repository = new SqlTriggerRepository(sql);
    expect((await repository.findStaleAccepted(new Date('2021-01-01T00:00:00Z'), 10)).map((t) => t.id)).toEqual(['t-accepted']);
    expect(await repository.markStatus('t-accepted', ['accepted'], 'processed')).toBe(true);
    expect(await repository.findStaleAccepted(new Date('2021-01-01T00:00:00Z'), 10)).toEqual([]);
  });

  it('has no index on triggers that reads status or updated_at, and leaves room on each page for the changed row', async () => {
    const indexes = await sql.query<{ definition: string }>(
      `SELECT pg_get_indexdef(indexrelid) AS definition FROM pg_index WHERE indrelid = 'triggers'::regclass`,
    );
    expect(indexes.length).toBeGreaterThan(0);
    for (const { definition } of indexes) expect(definition).not.toMatch(/status|updated_at/);
    const [table] = await sql.query<{ options: string[] }>(`SELECT reloptions AS options FROM pg_class WHERE oid = 'triggers'::regclass`);
    expect(table.options).toContain('fillfactor=50');
  });
});
