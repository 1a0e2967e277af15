import { Inject, Injectable } from '@nestjs/common';
import { ApiKey, Environment, EnvironmentChanges, EnvironmentRepository, Organization } from '@app/environments';
import { SQL_CLIENT, SqlClient } from '../sql-client';

const toEnvironment = (r: any): Environment => ({
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
const toApiKey = (r: any): ApiKey => ({
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
    await this.sql.query('INSERT INTO organizations (id, name, created_at) VALUES ($1, $2, $3)', [o.id, o.name, o.createdAt]);
  }

  async listOrganizations(): Promise<Organization[]> {
    const rows = await this.sql.query('SELECT * FROM organizations ORDER BY id');
    return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at }));
  }

  async insertEnvironment(e: Environment): Promise<boolean> {
    const rows = await this.sql.query(
      `INSERT INTO environments (id, organization_id, name, identifier, inbox_hmac, color, parent_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (organization_id, name) DO NOTHING RETURNING id`,
      [e.id, e.organizationId, e.name, e.identifier, e.inboxHmac, e.color ?? null, e.parentId ?? null, e.createdAt],
    );
    return rows.length === 1;
  }

  async findEnvironment(id: string): Promise<Environment | null> {
    const [row] = await this.sql.query('SELECT * FROM environments WHERE id = $1', [id]);
    return row ? toEnvironment(row) : null;
  }

  async findEnvironmentByName(organizationId: string, name: string): Promise<Environment | null> {
    const [row] = await this.sql.query('SELECT * FROM environments WHERE organization_id = $1 AND name = $2', [organizationId, name]);
    return row ? toEnvironment(row) : null;
  }

  async findEnvironmentByIdentifier(identifier: string): Promise<Environment | null> {
    const [row] = await this.sql.query('SELECT * FROM environments WHERE identifier = $1', [identifier]);
    return row ? toEnvironment(row) : null;
  }

  async setInboxHmac(id: string, required: boolean): Promise<boolean> {
    return (await this.sql.query('UPDATE environments SET inbox_hmac = $2 WHERE id = $1 RETURNING id', [id, required])).length === 1;
  }

  async listEnvironments(organizationId?: string): Promise<Environment[]> {
    const rows = organizationId
      ? await this.sql.query('SELECT * FROM environments WHERE organization_id = $1 ORDER BY id', [organizationId])
      : await this.sql.query('SELECT * FROM environments ORDER BY id');
    return rows.map(toEnvironment);
  }

  async updateEnvironment(id: string, changes: EnvironmentChanges): Promise<'updated' | 'not_found' | 'name_taken'> {
    try {
      const rows = await this.sql.query(
        `UPDATE environments SET name = COALESCE($2, name), color = COALESCE($3, color), parent_id = COALESCE($4, parent_id) WHERE id = $1 RETURNING id`,
        [id, changes.name ?? null, changes.color ?? null, changes.parentId ?? null],
      );
      return rows.length === 1 ? 'updated' : 'not_found';
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'name_taken';
      throw error;
    }
  }

  async deleteEnvironment(id: string): Promise<boolean> {
    return (await this.sql.query('DELETE FROM environments WHERE id = $1 RETURNING id', [id])).length === 1;
  }

  async insertApiKey(k: ApiKey): Promise<boolean> {
    const rows = await this.sql.query(
      `INSERT INTO api_keys (id, organization_id, environment_id, key_hash, key_hint, secret_sealed, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (key_hash) DO NOTHING RETURNING id`,
      [k.id, k.organizationId, k.environmentId, k.hash, k.hint, k.sealedSecret ?? null, k.createdAt],
    );
    return rows.length === 1;
  }

  async findApiKeyByHash(hash: string): Promise<ApiKey | null> {
    const [row] = await this.sql.query('SELECT * FROM api_keys WHERE key_hash = $1', [hash]);
    return row ? toApiKey(row) : null;
  }

  async listApiKeys(environmentId: string): Promise<ApiKey[]> {
    return (await this.sql.query('SELECT * FROM api_keys WHERE environment_id = $1 ORDER BY id', [environmentId])).map(toApiKey);
  }

  async deleteApiKeys(environmentId: string): Promise<number> {
    return (await this.sql.query('DELETE FROM api_keys WHERE environment_id = $1 RETURNING id', [environmentId])).length;
  }
}
