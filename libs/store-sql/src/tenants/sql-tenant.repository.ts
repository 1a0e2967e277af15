import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, PageRequest } from '@app/kernel';
import { Tenant, TenantChanges, TenantPage, TenantRepository, TenantUpdateResult } from '@app/tenants';
import { SQL_CLIENT, SqlClient } from '../sql-client';

const UNIQUE_VIOLATION = '23505';

/** Row → domain: NULL columns become absent fields. */
function toTenant(r: any): Tenant {
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
    const rows = await this.sql.query(
      `INSERT INTO tenants (id, organization_id, environment_id, identifier, name, data, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)
       ON CONFLICT (environment_id, identifier) DO NOTHING RETURNING id`,
      [t.id, t.organizationId, t.environmentId, t.identifier, t.name ?? null, json(t.data), t.createdAt, t.updatedAt],
    );
    return rows.length === 1;
  }

  async findByIdentifier(scope: EnvironmentScope, identifier: string): Promise<Tenant | null> {
    const [row] = await this.sql.query('SELECT * FROM tenants WHERE environment_id = $1 AND identifier = $2', [scope.environmentId, identifier]);
    return row ? toTenant(row) : null;
  }

  async list(scope: EnvironmentScope, page: PageRequest): Promise<TenantPage> {
    // One row beyond the page tells whether another page exists, without a COUNT.
    const rows = await this.sql.query('SELECT * FROM tenants WHERE environment_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3', [
      scope.environmentId,
      page.limit + 1,
      page.page * page.limit,
    ]);
    return { items: rows.slice(0, page.limit).map(toTenant), hasMore: rows.length > page.limit };
  }

  async update(scope: EnvironmentScope, identifier: string, changes: TenantChanges, updatedAt: Date): Promise<TenantUpdateResult> {
    try {
      const [row] = await this.sql.query(
        `UPDATE tenants SET
           identifier = COALESCE($3::text, identifier),
           name = CASE WHEN $4::boolean THEN $5::text ELSE name END,
           data = CASE WHEN $6::boolean THEN $7::jsonb ELSE data END,
           updated_at = $8
         WHERE environment_id = $1 AND identifier = $2
         RETURNING *`,
        [
          scope.environmentId,
          identifier,
          changes.identifier ?? null,
          changes.name !== undefined,
          changes.name ?? null,
          changes.data !== undefined,
          json(changes.data),
          updatedAt,
        ],
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
    // updated_at moves only when a given field really changes, so repeated triggers leave it alone.
    const [row] = await this.sql.query(
      `INSERT INTO tenants (id, organization_id, environment_id, identifier, name, data, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5::text, $6::jsonb, $7, $7)
       ON CONFLICT (environment_id, identifier) DO UPDATE SET
         name = CASE WHEN $8::boolean THEN EXCLUDED.name ELSE tenants.name END,
         data = CASE WHEN $9::boolean THEN EXCLUDED.data ELSE tenants.data END,
         updated_at = CASE
           WHEN ($8::boolean AND tenants.name IS DISTINCT FROM EXCLUDED.name)
             OR ($9::boolean AND tenants.data IS DISTINCT FROM EXCLUDED.data)
           THEN EXCLUDED.updated_at ELSE tenants.updated_at END
       RETURNING *`,
      [
        at.newId,
        scope.organizationId,
        scope.environmentId,
        identifier,
        changes.name ?? null,
        json(changes.data),
        at.now,
        changes.name !== undefined,
        changes.data !== undefined,
      ],
    );
    return { tenant: toTenant(row), created: row.id === at.newId };
  }

  async delete(scope: EnvironmentScope, identifier: string): Promise<boolean> {
    const rows = await this.sql.query('DELETE FROM tenants WHERE environment_id = $1 AND identifier = $2 RETURNING id', [scope.environmentId, identifier]);
    return rows.length === 1;
  }
}
