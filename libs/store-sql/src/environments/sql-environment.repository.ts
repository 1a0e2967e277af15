import { Inject, Injectable } from '@nestjs/common';
import { ApiKey, Environment, EnvironmentChanges, EnvironmentRepository, Organization } from '@app/environments';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { sql } from '../sql-statement';
import { NewRow, insertInto } from '../sql-table';
import { ApiKeyRow, EnvironmentRow, OrganizationRow, apiKeys, environments, organizations } from '../tables';

const toEnvironment = (r: EnvironmentRow): Environment => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  identifier: r.identifier,
  inboxHmac: r.inbox_hmac,
  ...(r.color ? { color: r.color } : {}),
  ...(r.parent_id ? { parentId: r.parent_id } : {}),
  createdAt: r.created_at,
});
const UNIQUE_VIOLATION = '23505';
const toApiKey = (r: ApiKeyRow): ApiKey => ({
  id: r.id,
  organizationId: r.organization_id,
  environmentId: r.environment_id,
  hash: r.key_hash,
  hint: r.key_hint,
  ...(r.secret_sealed ? { sealedSecret: r.secret_sealed } : {}),
  createdAt: r.created_at,
});

@Injectable()
export class SqlEnvironmentRepository implements EnvironmentRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async claimBootstrap(): Promise<boolean> {
    const rows = await this.sql.query(`INSERT INTO system_claims (name) VALUES ('bootstrap') ON CONFLICT DO NOTHING RETURNING name`);
    return rows.length === 1;
  }

  async insertOrganization(o: Organization): Promise<void> {
    await this.sql.query(insertInto(organizations, [{ id: o.id, name: o.name, created_at: o.createdAt }]));
  }

  async listOrganizations(): Promise<Organization[]> {
    const rows = await this.sql.query<OrganizationRow>('SELECT * FROM organizations ORDER BY id');
    return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at }));
  }

  async insertEnvironment(e: Environment): Promise<boolean> {
    const row: NewRow<typeof environments> = {
      id: e.id,
      organization_id: e.organizationId,
      name: e.name,
      identifier: e.identifier,
      inbox_hmac: e.inboxHmac,
      color: e.color ?? null,
      parent_id: e.parentId ?? null,
      created_at: e.createdAt,
    };
    const rows = await this.sql.query(sql`${insertInto(environments, [row])} ON CONFLICT (organization_id, name) DO NOTHING RETURNING id`);
    return rows.length === 1;
  }

  async findEnvironment(id: string): Promise<Environment | null> {
    const [row] = await this.sql.query<EnvironmentRow>(sql`SELECT * FROM environments WHERE id = ${id}`);
    return row ? toEnvironment(row) : null;
  }

  async findEnvironmentByName(organizationId: string, name: string): Promise<Environment | null> {
    const [row] = await this.sql.query<EnvironmentRow>(sql`SELECT * FROM environments WHERE organization_id = ${organizationId} AND name = ${name}`);
    return row ? toEnvironment(row) : null;
  }

  async findEnvironmentByIdentifier(identifier: string): Promise<Environment | null> {
    const [row] = await this.sql.query<EnvironmentRow>(sql`SELECT * FROM environments WHERE identifier = ${identifier}`);
    return row ? toEnvironment(row) : null;
  }

  async setInboxHmac(id: string, required: boolean): Promise<boolean> {
    return (await this.sql.query(sql`UPDATE environments SET inbox_hmac = ${required} WHERE id = ${id} RETURNING id`)).length === 1;
  }

  async listEnvironments(organizationId?: string): Promise<Environment[]> {
    const rows = organizationId
      ? await this.sql.query<EnvironmentRow>(sql`SELECT * FROM environments WHERE organization_id = ${organizationId} ORDER BY id`)
      : await this.sql.query<EnvironmentRow>('SELECT * FROM environments ORDER BY id');
    return rows.map(toEnvironment);
  }

  async updateEnvironment(id: string, changes: EnvironmentChanges): Promise<'updated' | 'not_found' | 'name_taken'> {
    try {
      const rows = await this.sql.query(
        sql`UPDATE environments SET name = COALESCE(${changes.name ?? null}, name), color = COALESCE(${changes.color ?? null}, color),
              parent_id = COALESCE(${changes.parentId ?? null}, parent_id)
            WHERE id = ${id} RETURNING id`,
      );
      return rows.length === 1 ? 'updated' : 'not_found';
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'name_taken';
      throw error;
    }
  }

  async deleteEnvironment(id: string): Promise<boolean> {
    return (await this.sql.query(sql`DELETE FROM environments WHERE id = ${id} RETURNING id`)).length === 1;
  }

  async insertApiKey(k: ApiKey): Promise<boolean> {
    const row: NewRow<typeof apiKeys> = {
      id: k.id,
      organization_id: k.organizationId,
      environment_id: k.environmentId,
      key_hash: k.hash,
      key_hint: k.hint,
      secret_sealed: k.sealedSecret ?? null,
      created_at: k.createdAt,
    };
    const rows = await this.sql.query(sql`${insertInto(apiKeys, [row])} ON CONFLICT (key_hash) DO NOTHING RETURNING id`);
    return rows.length === 1;
  }

  async findApiKeyByHash(hash: string): Promise<ApiKey | null> {
    const [row] = await this.sql.query<ApiKeyRow>(sql`SELECT * FROM api_keys WHERE key_hash = ${hash}`);
    return row ? toApiKey(row) : null;
  }

  async listApiKeys(environmentId: string): Promise<ApiKey[]> {
    return (await this.sql.query<ApiKeyRow>(sql`SELECT * FROM api_keys WHERE environment_id = ${environmentId} ORDER BY id`)).map(toApiKey);
  }

  async deleteApiKeys(environmentId: string): Promise<number> {
    return (await this.sql.query(sql`DELETE FROM api_keys WHERE environment_id = ${environmentId} RETURNING id`)).length;
  }
}
