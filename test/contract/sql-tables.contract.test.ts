import { SqlClient } from '@app/store-sql';
import { TABLES } from '../../libs/store-sql/src/tables';
import { SQL_STORES } from '../support/sql-stores';

// information_schema's udt names of the types the table definitions use.
const TYPE_NAMES: Record<string, string> = {
  text: 'text',
  bool: 'boolean',
  int4: 'integer',
  int8: 'bigint',
  timestamptz: 'timestamptz',
  jsonb: 'jsonb',
  _text: 'text[]',
};

interface CatalogueColumn {
  table_name: string;
  column_name: string;
  udt_name: string;
  nullable: boolean;
  defaulted: boolean;
}

// The row types of the SQL repositories come from libs/store-sql/src/tables.ts: every table and
// column there is as the migrations leave it, and no table or column of the schema is missing.
describe.each(SQL_STORES)('table definitions on $name', (store) => {
  let sql: SqlClient;
  beforeAll(async () => {
    sql = await store.open();
  });
  afterAll(() => sql.close());

  it('match the migrated schema: every table, column, type, NULL and default', async () => {
    const columns = await sql.query<CatalogueColumn>(
      `SELECT c.table_name, c.column_name, c.udt_name, c.is_nullable = 'YES' AS nullable, c.column_default IS NOT NULL AS defaulted
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
       WHERE c.table_schema = current_schema()`,
    );
    const describe = (table: string, column: string, type: string, nullable: boolean, defaulted: boolean) =>
      `${table}.${column} ${type}${nullable ? ' NULL' : ''}${defaulted ? ' DEFAULT' : ''}`;
    const migrated = columns.map((c) => describe(c.table_name, c.column_name, TYPE_NAMES[c.udt_name] ?? c.udt_name, c.nullable, c.defaulted)).sort();
    const defined = TABLES.flatMap((table) =>
      Object.entries(table.columns).map(([name, column]) => describe(table.name, name, column.type, column.nullable, column.defaulted)),
    ).sort();
    expect(defined).toEqual(migrated);
  });
});
