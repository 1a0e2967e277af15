import { Migration, SqlClient, createSqlClient, migrate } from '@app/store-sql';
import { SqlMessageRepository } from '../../libs/store-sql/src/delivery';
import type { Statement } from '../../libs/store-sql/src/sql-statement';
import { SQL_STORES } from '../support/sql-stores';
import { TEST_DATABASE_URL, uniqueName } from '../support/test-env';

const indexes = (sql: SqlClient, table: string) =>
  sql.query<{ name: string; valid: boolean }>(
    `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid = $1::regclass ORDER BY c.relname`,
    [table],
  );

// A migration's `online` statements run one at a time outside a transaction (CREATE INDEX CONCURRENTLY
// refuses a transaction block), before its transactional part, and run again safely after a crash.
describe.each(SQL_STORES)('migrate on $name', (store) => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await store.open({ fromEmpty: true });
  });
  afterAll(() => sql.close());

  const probe: Migration = {
    version: 1_000_001,
    name: 'online_probe',
    online: ['DROP INDEX CONCURRENTLY IF EXISTS online_probe_n', 'CREATE INDEX CONCURRENTLY online_probe_n ON online_probe (n)'],
    sql: "INSERT INTO online_probe (id, n) VALUES ('migrated', 1)",
  };

  it('builds an online index, then runs the transactional part and records the version once', async () => {
    await sql.exec('CREATE TABLE online_probe (id text PRIMARY KEY, n integer NOT NULL)');
    expect(await migrate(sql, [probe])).toEqual([probe.version]);
    expect(await indexes(sql, 'online_probe')).toEqual([
      { name: 'online_probe_n', valid: true },
      { name: 'online_probe_pkey', valid: true },
    ]);
    expect(await sql.query('SELECT id FROM online_probe')).toEqual([{ id: 'migrated' }]);
    expect(await migrate(sql, [probe])).toEqual([]);
  });

  it('runs the online statements again when a crash stopped the migration after them', async () => {
    const again: Migration = { ...probe, version: 1_000_002, sql: "INSERT INTO online_probe (id, n) VALUES ('again', 2)" };
    // the index as a crashed run left it, its version never recorded
    expect(await indexes(sql, 'online_probe')).toContainEqual({ name: 'online_probe_n', valid: true });
    expect(await migrate(sql, [again])).toEqual([again.version]);
    expect(await indexes(sql, 'online_probe')).toContainEqual({ name: 'online_probe_n', valid: true });
    expect(await sql.query('SELECT id FROM online_probe ORDER BY id')).toEqual([{ id: 'again' }, { id: 'migrated' }]);
  });

  it('replaces the invalid index a failed concurrent build left behind', async () => {
    const rebuilt: Migration = { ...probe, version: 1_000_003, sql: '' };
    await sql.exec('DROP INDEX online_probe_n');
    await sql.exec("INSERT INTO online_probe (id, n) VALUES ('duplicate', 1)");
    await expect(sql.exec('CREATE UNIQUE INDEX CONCURRENTLY online_probe_n ON online_probe (n)')).rejects.toThrow(/unique|duplicate/i);
    expect(await indexes(sql, 'online_probe')).toContainEqual({ name: 'online_probe_n', valid: false });
    expect(await migrate(sql, [rebuilt])).toEqual([rebuilt.version]);
    expect(await indexes(sql, 'online_probe')).toContainEqual({ name: 'online_probe_n', valid: true });
  });

  it("leaves messages migration 28's index of the messages whose id is not their job's, in place of messages_job, and migration 30's of a subscriber's messages other than in-app", async () => {
    const names = (await indexes(sql, 'messages')).map((index) => (index.valid ? index.name : `${index.name} (invalid)`));
    expect(names).toEqual(expect.arrayContaining(['messages_job_not_own', 'messages_env_subscriber_not_in_app', 'messages_inbox']));
    expect(names).not.toContain('messages_env_subscriber');
    expect(names).not.toContain('messages_job');
  });

  it("reads a subscriber's messages, of every channel or of one, through migration 30's index and messages_inbox", async () => {
    // The statements the message list sends, run here with EXPLAIN; with sequential scans off, since
    // on these few rows one would win: the plan shows which indexes the statements can use.
    const sent: { text: string; params: unknown[] }[] = [];
    const capturing = {
      dialect: sql.dialect,
      query: async (statement: string | Statement, params: unknown[] = []) => {
        const text = typeof statement === 'string' ? statement : statement.text;
        sent.push({ text, params: typeof statement === 'string' ? params : [...statement.values] });
        return text.includes('COUNT(*)') ? [{ total: 0 }] : [];
      },
    } as unknown as SqlClient;
    const messages = new SqlMessageRepository(capturing);
    const scope = { organizationId: 'org-plan', environmentId: 'env-plan' };
    const expected: [string | undefined, string[]][] = [
      [undefined, ['messages_inbox', 'messages_env_subscriber_not_in_app']],
      ['email', ['messages_env_subscriber_not_in_app']],
      ['in_app', ['messages_inbox']],
    ];
    await sql.session(async (one) => {
      await one.exec('SET enable_seqscan = off');
      try {
        for (const [channel, indexNames] of expected) {
          sent.length = 0;
          await messages.list(scope, { subscriberId: 'subscriber-plan', channel, page: 1, limit: 10 });
          for (const { text, params } of sent) {
            const plan = (await one.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params)).map((row) => row['QUERY PLAN']).join('\n');
            expect(plan).not.toMatch(/Seq Scan/);
            for (const name of indexNames) expect(plan).toContain(name);
          }
        }
      } finally {
        await one.exec('RESET enable_seqscan');
      }
    });
  });
});

// Processes starting at once take turns on one advisory lock per database. A process waiting for it
// must hold no snapshot: CREATE INDEX CONCURRENTLY, run by the holder, waits for every older snapshot
// of the database, and the two would wait for each other.
describe('migrate on PostgreSQL, several processes at once', () => {
  it('lets each run its online statements in turn, none waiting on another', async () => {
    const clients = await Promise.all([0, 1, 2].map(() => createSqlClient({ url: TEST_DATABASE_URL, schema: uniqueName('m'), poolSize: 2 })));
    try {
      const migration: Migration = {
        version: 1,
        name: 'partial_index_online',
        online: ['DROP INDEX CONCURRENTLY IF EXISTS probe_partial', 'CREATE INDEX CONCURRENTLY probe_partial ON probe (n) WHERE n <> 0'],
        sql: '',
      };
      for (const client of clients) await client.exec('CREATE TABLE probe (id text PRIMARY KEY, n integer NOT NULL)');
      expect(await Promise.all(clients.map((client) => migrate(client, [migration])))).toEqual([[1], [1], [1]]);
      for (const client of clients) expect(await indexes(client, 'probe')).toContainEqual({ name: 'probe_partial', valid: true });
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
