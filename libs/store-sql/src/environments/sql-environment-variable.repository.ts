import { Inject, Injectable } from '@nestjs/common';
import {
  EnvironmentValue,
  EnvironmentVariable,
  EnvironmentVariableChanges,
  EnvironmentVariableRepository,
  EnvironmentVariableUpdateResult,
} from '@app/environments';
import { CREDENTIAL_CIPHER, CredentialCipher } from '@app/integrations';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { empty, sql } from '../sql-statement';
import { NewRow, insertInto } from '../sql-table';
import { EnvironmentVariableRow, environmentVariables } from '../tables';
import { containsPattern } from '../subscribers/sql-cursor-page';

const UNIQUE_VIOLATION = '23505';

/**
 * EnvironmentVariableRepository on PostgreSQL / PGlite: one row per (organization, key), the values
 * of every environment in one jsonb object (environment id → value encrypted by the CredentialCipher),
 * so a rename and a merge of values are one statement.
 */
@Injectable()
export class SqlEnvironmentVariableRepository implements EnvironmentVariableRepository {
  constructor(
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(CREDENTIAL_CIPHER) private readonly cipher: CredentialCipher,
  ) {}

  async insert(v: EnvironmentVariable): Promise<boolean> {
    const row: NewRow<typeof environmentVariables> = {
      id: v.id,
      organization_id: v.organizationId,
      key: v.key,
      type: v.type,
      is_secret: v.isSecret,
      environment_values: this.sealed(v.values),
      created_at: v.createdAt,
      updated_at: v.updatedAt,
    };
    const rows = await this.sql.query(sql`${insertInto(environmentVariables, [row])} ON CONFLICT (organization_id, key) DO NOTHING RETURNING id`);
    return rows.length === 1;
  }

  async findByKey(organizationId: string, key: string): Promise<EnvironmentVariable | null> {
    const [row] = await this.sql.query<EnvironmentVariableRow>(
      sql`SELECT * FROM environment_variables WHERE organization_id = ${organizationId} AND key = ${key}`,
    );
    return row ? this.toVariable(row) : null;
  }

  async list(organizationId: string, search?: string): Promise<EnvironmentVariable[]> {
    const matching = search ? sql` AND key ILIKE ${containsPattern(search)} ESCAPE '\\'` : empty;
    const rows = await this.sql.query<EnvironmentVariableRow>(
      sql`SELECT * FROM environment_variables WHERE organization_id = ${organizationId}${matching} ORDER BY created_at DESC, id DESC`,
    );
    return rows.map((row) => this.toVariable(row));
  }

  async update(organizationId: string, key: string, changes: EnvironmentVariableChanges, updatedAt: Date): Promise<EnvironmentVariableUpdateResult> {
    const values = changes.values ? JSON.stringify(this.sealed(changes.values)) : null;
    try {
      const [row] = await this.sql.query<EnvironmentVariableRow>(
        sql`UPDATE environment_variables SET
              key = COALESCE(${changes.key ?? null}::text, key),
              type = COALESCE(${changes.type ?? null}::text, type),
              is_secret = COALESCE(${changes.isSecret ?? null}::boolean, is_secret),
              environment_values = environment_values || COALESCE(${values}::jsonb, '{}'::jsonb),
              updated_at = ${updatedAt}
            WHERE organization_id = ${organizationId} AND key = ${key} RETURNING *`,
      );
      return row ? { status: 'updated', variable: this.toVariable(row) } : { status: 'not_found' };
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return { status: 'key_taken' };
      throw error;
    }
  }

  async delete(organizationId: string, key: string): Promise<boolean> {
    const rows = await this.sql.query(sql`DELETE FROM environment_variables WHERE organization_id = ${organizationId} AND key = ${key} RETURNING id`);
    return rows.length === 1;
  }

  async valuesFor(organizationId: string, environmentId: string): Promise<EnvironmentValue[]> {
    const rows = await this.sql.query<{ key: string; is_secret: boolean; value: string }>(
      sql`SELECT key, is_secret, environment_values->>${environmentId}::text AS value FROM environment_variables
          WHERE organization_id = ${organizationId} AND environment_values ? ${environmentId}::text ORDER BY key`,
    );
    return rows.map((row) => ({ key: row.key, isSecret: row.is_secret, value: this.cipher.decrypt(row.value) }));
  }

  /** The values as stored: each encrypted. */
  private sealed(values: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(values).map(([environmentId, value]) => [environmentId, this.cipher.encrypt(value)]));
  }

  private toVariable(r: EnvironmentVariableRow): EnvironmentVariable {
    return {
      id: r.id,
      organizationId: r.organization_id,
      key: r.key,
      type: r.type,
      isSecret: r.is_secret,
      values: Object.fromEntries(Object.entries(r.environment_values).map(([environmentId, value]) => [environmentId, this.cipher.decrypt(value)])),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }
}
