import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, PageRequest } from '@app/kernel';
import { Tenant, TenantChanges, TenantPage, TenantRepository, TenantUpdateResult } from '@app/tenants';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { sql } from '../sql-statement';
import { NewRow, insertInto } from '../sql-table';
import { TenantRow, tenants } from '../tables';

const UNIQUE_VIOLATION = '23505';

/** Row → domain: NULL columns become absent fields. */
function toTenant(r: TenantRow): Tenant {
  return {
    id: r.id,
    organizationId: r.organization_id,
    environmentId: r.environment_id,
    identifier: r.identifier,
    ...(r.name !== null ? { name: r.name } : {}),
    ...(r.data !== null ? { data: r.data } : {}),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

// SQL NULL for both undefined and null: a JSON `null` in the column would read back as a present field.
const json = (value: unknown) => (value == null ? null : JSON.stringify(value));

@Injectable()
export class SqlTenantRepository implements TenantRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async insert(t: Tenant): Promise<boolean> {
    const row: NewRow<typeof tenants> = {
      id: t.id,
      organization_id: t.organizationId,
      environment_id: t.environmentId,
      identifier: t.identifier,
      name: t.name ?? null,
      data: t.data ?? null,
      created_at: t.createdAt,
      updated_at: t.updatedAt,
    };
    const rows = await this.sql.query(sql`${insertInto(tenants, [row])} ON CONFLICT (environment_id, identifier) DO NOTHING RETURNING id`);
    return rows.length === 1;
  }

  async findByIdentifier(scope: EnvironmentScope, identifier: string): Promise<Tenant | null> {
    const [row] = await this.sql.query<TenantRow>(sql`SELECT * FROM tenants WHERE environment_id = ${scope.environmentId} AND identifier = ${identifier}`);
    return row ? toTenant(row) : null;
  }

  async list(scope: EnvironmentScope, page: PageRequest): Promise<TenantPage> {
    // One row beyond the page tells whether another page exists, without a COUNT.
    const rows = await this.sql.query<TenantRow>(
      sql`SELECT * FROM tenants WHERE environment_id = ${scope.environmentId} ORDER BY created_at, id LIMIT ${page.limit + 1} OFFSET ${page.page * page.limit}`,
    );
    return { items: rows.slice(0, page.limit).map(toTenant), hasMore: rows.length > page.limit };
  }

  async update(scope: EnvironmentScope, identifier: string, changes: TenantChanges, updatedAt: Date): Promise<TenantUpdateResult> {
    try {
      const [row] = await this.sql.query<TenantRow>(
        sql`UPDATE tenants SET
              identifier = COALESCE(${changes.identifier ?? null}::text, identifier),
              name = CASE WHEN ${changes.name !== undefined}::boolean THEN ${changes.name ?? null}::text ELSE name END,
              data = CASE WHEN ${changes.data !== undefined}::boolean THEN ${json(changes.data)}::jsonb ELSE data END,
              updated_at = ${updatedAt}
            WHERE environment_id = ${scope.environmentId} AND identifier = ${identifier}
            RETURNING *`,
      );
      return row ? { status: 'updated', tenant: toTenant(row) } : { status: 'not_found' };
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return { status: 'identifier_taken' };
      throw error;
    }
  }

  async upsert(
    scope: EnvironmentScope,
    identifier: string,
    changes: Omit<TenantChanges, 'identifier'>,
    at: { newId: string; now: Date },
  ): Promise<{ tenant: Tenant; created: boolean }> {
    const nameGiven = sql`${changes.name !== undefined}::boolean`;
    const dataGiven = sql`${changes.data !== undefined}::boolean`;
    // updated_at moves only when a given field really changes, so repeated triggers leave it alone.
    const [row] = await this.sql.query<TenantRow>(
      sql`INSERT INTO tenants (id, organization_id, environment_id, identifier, name, data, created_at, updated_at)
          VALUES (${at.newId}, ${scope.organizationId}, ${scope.environmentId}, ${identifier}, ${changes.name ?? null}::text, ${json(changes.data)}::jsonb,
            ${at.now}, ${at.now})
          ON CONFLICT (environment_id, identifier) DO UPDATE SET
            name = CASE WHEN ${nameGiven} THEN EXCLUDED.name ELSE tenants.name END,
            data = CASE WHEN ${dataGiven} THEN EXCLUDED.data ELSE tenants.data END,
            updated_at = CASE
              WHEN (${nameGiven} AND tenants.name IS DISTINCT FROM EXCLUDED.name)
                OR (${dataGiven} AND tenants.data IS DISTINCT FROM EXCLUDED.data)
              THEN EXCLUDED.updated_at ELSE tenants.updated_at END
          RETURNING *`,
    );
    return { tenant: toTenant(row), created: row.id === at.newId };
  }

  async delete(scope: EnvironmentScope, identifier: string): Promise<boolean> {
    const rows = await this.sql.query(sql`DELETE FROM tenants WHERE environment_id = ${scope.environmentId} AND identifier = ${identifier} RETURNING id`);
    return rows.length === 1;
  }
}
