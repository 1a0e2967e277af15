import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentDataPurger } from '@app/environments';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { raw, sql } from '../sql-statement';

/**
 * Every table of the schema with an `environment_id` column, read from the catalogue at each purge,
 * so a table a later migration adds is purged too. triggers_pending lists triggers by id only: its
 * rows of the environment go first, while the triggers that name them are still there. An
 * environment variable belongs to the organization: only its value of the environment goes.
 */
@Injectable()
export class SqlEnvironmentDataPurger implements EnvironmentDataPurger {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async purge(environmentId: string): Promise<number> {
    let removed = (
      await this.sql.query(
        sql`DELETE FROM triggers_pending p USING triggers t WHERE t.environment_id = ${environmentId} AND p.id = t.id AND p.created_at = t.created_at RETURNING 1`,
      )
    ).length;
    removed += (
      await this.sql.query(
        sql`UPDATE environment_variables SET environment_values = environment_values - ${environmentId}::text WHERE environment_values ? ${environmentId}::text RETURNING 1`,
      )
    ).length;
    for (const table of await environmentTables(this.sql)) {
      // One statement per table: it finds the rows through the table's environment index where there is one.
      const [row] = await this.sql.query<{ removed: number }>(
        sql`WITH gone AS (DELETE FROM ${raw(`"${table}"`)} WHERE environment_id = ${environmentId} RETURNING 1) SELECT count(*)::int AS removed FROM gone`,
      );
      removed += row.removed;
    }
    return removed;
  }
}

/** The tables of the current schema that have an `environment_id` column, by name. */
export async function environmentTables(sql: SqlClient): Promise<string[]> {
  const rows = await sql.query<{ table_name: string }>(
    `SELECT c.table_name FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
     WHERE c.table_schema = current_schema() AND c.column_name = 'environment_id' ORDER BY c.table_name`,
  );
  return rows.map((row) => row.table_name);
}
