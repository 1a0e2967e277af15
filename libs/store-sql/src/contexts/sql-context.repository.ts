import { Inject, Injectable } from '@nestjs/common';
import { Context, ContextEntry, ContextRepository, ContextSearch, parseContextKey } from '@app/contexts';
import { CursorPage, EnvironmentScope } from '@app/kernel';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { sql } from '../sql-statement';
import { NewRow, insertInto } from '../sql-table';
import { ContextRow, contexts } from '../tables';
import { containsPattern, cursorListPage } from '../subscribers/sql-cursor-page';

function toContext(r: ContextRow): Context {
  return {
    id: r.id,
    organizationId: r.organization_id,
    environmentId: r.environment_id,
    type: r.type,
    identifier: r.identifier,
    data: r.data,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const ORDER_COLUMNS = { _id: 'id', createdAt: 'created_at', updatedAt: 'updated_at' } as const;

@Injectable()
export class SqlContextRepository implements ContextRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async insert(c: Context): Promise<boolean> {
    const row: NewRow<typeof contexts> = {
      id: c.id,
      organization_id: c.organizationId,
      environment_id: c.environmentId,
      type: c.type,
      identifier: c.identifier,
      data: c.data,
      created_at: c.createdAt,
      updated_at: c.updatedAt,
    };
    const rows = await this.sql.query(sql`${insertInto(contexts, [row])} ON CONFLICT (environment_id, type, identifier) DO NOTHING RETURNING id`);
    return rows.length === 1;
  }

  async find(scope: EnvironmentScope, type: string, identifier: string): Promise<Context | null> {
    const [row] = await this.sql.query<ContextRow>(
      sql`SELECT * FROM contexts WHERE environment_id = ${scope.environmentId} AND type = ${type} AND identifier = ${identifier}`,
    );
    return row ? toContext(row) : null;
  }

  async findByKeys(scope: EnvironmentScope, keys: string[]): Promise<Context[]> {
    const parsed = keys.map(parseContextKey).filter((key) => key !== undefined);
    if (!parsed.length) return [];
    const rows = await this.sql.query<ContextRow>(
      sql`SELECT c.* FROM contexts c
          JOIN unnest(${parsed.map((key) => key.type)}::text[], ${parsed.map((key) => key.identifier)}::text[]) AS k(type, identifier)
            ON c.type = k.type AND c.identifier = k.identifier
          WHERE c.environment_id = ${scope.environmentId}`,
    );
    return rows.map(toContext);
  }

  search(scope: EnvironmentScope, search: ContextSearch): Promise<CursorPage<Context>> {
    return cursorListPage(
      this.sql,
      {
        table: 'contexts',
        scope,
        orderColumn: ORDER_COLUMNS[search.orderBy],
        request: search,
        where: [
          ...(search.identifier !== undefined ? [sql`identifier = ${search.identifier}`] : []),
          ...(search.search ? [sql`(type || ':' || identifier) ILIKE ${containsPattern(search.search)} ESCAPE '\\'`] : []),
        ],
      },
      toContext,
    );
  }

  async updateData(scope: EnvironmentScope, type: string, identifier: string, data: Record<string, unknown>, updatedAt: Date): Promise<Context | null> {
    const [row] = await this.sql.query<ContextRow>(
      sql`UPDATE contexts SET data = ${JSON.stringify(data)}::jsonb, updated_at = ${updatedAt}
          WHERE environment_id = ${scope.environmentId} AND type = ${type} AND identifier = ${identifier} RETURNING *`,
    );
    return row ? toContext(row) : null;
  }

  async delete(scope: EnvironmentScope, type: string, identifier: string): Promise<boolean> {
    const rows = await this.sql.query(
      sql`DELETE FROM contexts WHERE environment_id = ${scope.environmentId} AND type = ${type} AND identifier = ${identifier} RETURNING id`,
    );
    return rows.length === 1;
  }

  upsert(scope: EnvironmentScope, entries: ContextEntry[], at: { newId: () => string; now: Date }): Promise<Context[]> {
    return Promise.all(entries.map((entry) => this.upsertOne(scope, entry, at.newId(), at.now)));
  }

  /**
   * One statement: the context inserted when missing; given data replaces the stored data only when
   * it differs (an unchanged context is not written, so frequent triggers do not contend on its row);
   * either way the row as it is now.
   */
  private async upsertOne(scope: EnvironmentScope, entry: ContextEntry, id: string, now: Date): Promise<Context> {
    const { environmentId } = scope;
    const data = entry.data === undefined ? null : JSON.stringify(entry.data);
    for (;;) {
      const [row] = await this.sql.query<ContextRow>(
        sql`WITH written AS (
              INSERT INTO contexts (id, organization_id, environment_id, type, identifier, data, created_at, updated_at)
              VALUES (${id}, ${scope.organizationId}, ${environmentId}, ${entry.type}, ${entry.identifier}, COALESCE(${data}::jsonb, '{}'::jsonb), ${now}, ${now})
              ON CONFLICT (environment_id, type, identifier) DO UPDATE SET data = EXCLUDED.data, updated_at = EXCLUDED.updated_at
              WHERE ${data}::jsonb IS NOT NULL AND contexts.data IS DISTINCT FROM EXCLUDED.data
              RETURNING *)
            SELECT * FROM written
            UNION ALL SELECT * FROM contexts
              WHERE environment_id = ${environmentId} AND type = ${entry.type} AND identifier = ${entry.identifier} AND NOT EXISTS (SELECT 1 FROM written)`,
      );
      // None: a concurrent insert committed after this statement's snapshot was taken; the next round sees it.
      if (row) return toContext(row);
    }
  }
}
