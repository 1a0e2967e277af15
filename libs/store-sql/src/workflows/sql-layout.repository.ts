import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, Page } from '@app/kernel';
import { Layout, LayoutChanges, LayoutRepository, LayoutSearch } from '@app/workflows';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { Sql, raw, sql } from '../sql-statement';
import { NewRow, insertInto } from '../sql-table';
import { LayoutRow, layouts } from '../tables';
import { containsPattern } from '../subscribers/sql-cursor-page';

/** Row → domain: a NULL default_since becomes an absent field. */
function toLayout(r: LayoutRow): Layout {
  return {
    id: r.id,
    organizationId: r.organization_id,
    environmentId: r.environment_id,
    layoutId: r.layout_id,
    name: r.name,
    isTranslationEnabled: r.is_translation_enabled,
    controlValues: r.control_values,
    ...(r.default_since ? { defaultSince: r.default_since } : {}),
    creatorId: r.creator_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const scoped = (scope: EnvironmentScope): Sql => sql`environment_id = ${scope.environmentId} AND organization_id = ${scope.organizationId}`;
const SORT_COLUMNS = { createdAt: 'created_at', updatedAt: 'updated_at', name: 'name COLLATE "C"' } as const;

/** LayoutRepository on PostgreSQL and PGlite: one row per (environment, layout_id); the default is the row marked last. */
@Injectable()
export class SqlLayoutRepository implements LayoutRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async insert(l: Layout): Promise<boolean> {
    const row: NewRow<typeof layouts> = {
      id: l.id,
      organization_id: l.organizationId,
      environment_id: l.environmentId,
      layout_id: l.layoutId,
      name: l.name,
      is_translation_enabled: l.isTranslationEnabled,
      control_values: l.controlValues,
      default_since: l.defaultSince ?? null,
      creator_id: l.creatorId,
      created_at: l.createdAt,
      updated_at: l.updatedAt,
    };
    const rows = await this.sql.query(sql`${insertInto(layouts, [row])} ON CONFLICT (environment_id, layout_id) DO NOTHING RETURNING id`);
    return rows.length === 1;
  }

  async update(scope: EnvironmentScope, id: string, changes: LayoutChanges, updatedAt: Date): Promise<Layout | null> {
    const controls = changes.controlValues == null ? null : JSON.stringify(changes.controlValues);
    const [row] = await this.sql.query<LayoutRow>(
      sql`UPDATE layouts SET
            name = COALESCE(${changes.name ?? null}::text, name),
            is_translation_enabled = COALESCE(${changes.isTranslationEnabled ?? null}::boolean, is_translation_enabled),
            control_values = CASE WHEN ${changes.controlValues !== undefined}::boolean THEN ${controls}::jsonb ELSE control_values END,
            updated_at = ${updatedAt}
          WHERE ${scoped(scope)} AND id = ${id}
          RETURNING *`,
    );
    return row ? toLayout(row) : null;
  }

  async findByReference(scope: EnvironmentScope, idOrLayoutId: string): Promise<Layout | null> {
    const [row] = await this.sql.query<LayoutRow>(
      sql`SELECT * FROM layouts WHERE ${scoped(scope)} AND (id = ${idOrLayoutId} OR layout_id = ${idOrLayoutId}) ORDER BY (id = ${idOrLayoutId}) DESC LIMIT 1`,
    );
    return row ? toLayout(row) : null;
  }

  async findDefault(scope: EnvironmentScope): Promise<Layout | null> {
    // The environment's default: the row marked last.
    const [row] = await this.sql.query<LayoutRow>(
      sql`SELECT * FROM layouts WHERE ${scoped(scope)} AND default_since IS NOT NULL ORDER BY default_since DESC, id DESC LIMIT 1`,
    );
    return row ? toLayout(row) : null;
  }

  async findForEmail(scope: EnvironmentScope, layoutId: string | undefined): Promise<Layout | null> {
    if (layoutId === undefined) return this.findDefault(scope);
    const [row] = await this.sql.query<LayoutRow>(sql`SELECT * FROM layouts WHERE ${scoped(scope)} AND layout_id = ${layoutId}`);
    return row ? toLayout(row) : null;
  }

  async search(scope: EnvironmentScope, search: LayoutSearch): Promise<Page<Layout>> {
    const pattern = search.query ? containsPattern(search.query) : null;
    const where = pattern ? sql`${scoped(scope)} AND (name ILIKE ${pattern} OR layout_id ILIKE ${pattern})` : scoped(scope);
    const order = raw(
      `${SORT_COLUMNS[search.orderBy ?? 'createdAt']} ${search.orderDirection === 'asc' ? 'ASC' : 'DESC'}, id ${search.orderDirection === 'asc' ? 'ASC' : 'DESC'}`,
    );
    const [[{ count }], rows] = await Promise.all([
      this.sql.query<{ count: number }>(sql`SELECT COUNT(*)::int AS count FROM layouts WHERE ${where}`),
      this.sql.query<LayoutRow>(sql`SELECT * FROM layouts WHERE ${where} ORDER BY ${order} LIMIT ${search.limit} OFFSET ${search.offset}`),
    ]);
    return { items: rows.map(toLayout), totalCount: count };
  }

  async markDefault(scope: EnvironmentScope, id: string | null, at: Date): Promise<boolean> {
    // One statement: the layout gets the mark, every other one loses it (nothing changes when there is no such layout).
    const rows = await this.sql.query<{ id: string }>(
      sql`UPDATE layouts SET default_since = CASE WHEN id = ${id}::text THEN ${at}::timestamptz END
          WHERE ${scoped(scope)} AND (id = ${id}::text OR default_since IS NOT NULL)
            AND (${id}::text IS NULL OR EXISTS (SELECT 1 FROM layouts marked WHERE marked.id = ${id}::text AND marked.environment_id = ${scope.environmentId}))
          RETURNING id`,
    );
    return id === null || rows.some((row) => row.id === id);
  }

  async delete(scope: EnvironmentScope, id: string): Promise<boolean> {
    const rows = await this.sql.query(sql`DELETE FROM layouts WHERE ${scoped(scope)} AND id = ${id} RETURNING id`);
    return rows.length === 1;
  }
}
