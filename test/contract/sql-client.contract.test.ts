import { SqlClient, textArray } from '@app/store-sql';
import { SQL_STORES } from '../support/sql-stores';

// queryPrepared is query with the statement parsed and planned once per connection (PostgreSQL's
// named statements; PGlite runs it as query): the same answers, the same errors, and a schema change
// after the first call does not break it.
describe.each(SQL_STORES)('SqlClient.queryPrepared on $name', (store) => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await store.open();
    await sql.exec('CREATE TABLE prepared_probe (id text PRIMARY KEY, n integer NOT NULL)');
  });
  afterAll(() => sql.close());

  const insert =
    'INSERT INTO prepared_probe (id, n) SELECT id, n FROM jsonb_to_recordset($1::jsonb) AS r(id text, n integer) ON CONFLICT (id) DO NOTHING RETURNING id';

  it('answers as query does, call after call', async () => {
    for (let round = 0; round < 8; round++) {
      const rows = await sql.queryPrepared<{ id: string }>(insert, [
        JSON.stringify([
          { id: `a${round}`, n: round },
          { id: 'a0', n: 0 },
        ]),
      ]);
      expect(rows.map((row) => row.id)).toEqual(round === 0 ? ['a0'] : [`a${round}`]);
    }
    expect(await sql.query('SELECT count(*)::int AS n FROM prepared_probe')).toEqual([{ n: 8 }]);
  });

  it('fails as query does, the statement named and the values left out', async () => {
    const failure = await sql.queryPrepared(insert, [JSON.stringify([{ id: 'x', n: 'SECRET' }])]).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^INSERT INTO prepared_probe: invalid input syntax for type integer/);
    expect((failure as Error).message).not.toContain('SECRET');
    // the connection and its prepared statement still serve the next call
    expect(await sql.queryPrepared(insert, [JSON.stringify([{ id: 'b', n: 1 }])])).toEqual([{ id: 'b' }]);
  });

  it('keeps working after a migration adds a column to the table it reads', async () => {
    await sql.queryPrepared(insert, [JSON.stringify([{ id: 'c', n: 1 }])]);
    await sql.exec("ALTER TABLE prepared_probe ADD COLUMN label text NOT NULL DEFAULT 'x'");
    expect(await sql.queryPrepared(insert, [JSON.stringify([{ id: 'd', n: 2 }])])).toEqual([{ id: 'd' }]);
  });

  if (store.name === 'PostgreSQL') {
    it('is prepared once on a connection, however often it runs there', async () => {
      const names = await sql.session(async (connection) => {
        for (let round = 0; round < 3; round++) await connection.queryPrepared(insert, [JSON.stringify([{ id: `s${round}`, n: round }])]);
        return connection.query<{ name: string }>('SELECT name FROM pg_prepared_statements WHERE statement = $1', [insert]);
      });
      expect(names).toHaveLength(1);
    });
  }
});

// textArray: a text[] parameter as an array literal (the worker's batched lookups), read back as the
// values themselves whatever they hold.
describe.each(SQL_STORES)('textArray on $name', (store) => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await store.open();
  });
  afterAll(() => sql.close());

  it.each([
    ['ids', ['6b09bd1de85ffad06a0289be', 'a4381d97781d3788f4ccf027']],
    ['characters an array literal gives meaning to', ['a"b', 'c\\d', 'e,f', '{g}', ' h ', 'NULL', 'null', '', '\\"', 'i\nj', 'é ✓ 😀']],
    ['none', []],
  ])('%s', async (_, values) => {
    const [row] = await sql.query<{ values: string[] }>('SELECT $1::text[] AS values', [textArray(values)]);
    expect(row.values).toEqual(values);
  });
});
