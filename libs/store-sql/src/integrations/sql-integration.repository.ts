import { Inject, Injectable } from '@nestjs/common';
import {
  ActiveIntegrationQuery,
  CREDENTIAL_CIPHER,
  CredentialCipher,
  InsertIntegrationResult,
  Integration,
  IntegrationRepository,
  PriorityChange,
  ReplaceIntegrationResult,
} from '@app/integrations';
import { CallBatcher, EnvironmentScope } from '@app/kernel';
import { SQL_CLIENT, SqlClient } from '../sql-client';

const UNIQUE_VIOLATION = '23505';

/** Maps rows to the domain (decrypting credentials) and back; optional fields stay absent, not null. */
class IntegrationRowMapper {
  constructor(private readonly cipher: CredentialCipher) {}

  toDomain(r: any): Integration {
    return {
      id: r.id,
      organizationId: r.organization_id,
      environmentId: r.environment_id,
      name: r.name,
      identifier: r.identifier,
      providerId: r.provider_id,
      channel: r.channel,
      credentials: JSON.parse(this.cipher.decrypt(r.credentials)),
      configurations: r.configurations ?? {},
      active: r.active,
      primary: r.is_primary,
      priority: r.priority,
      conditions: r.conditions ?? [],
      fallbacks: r.fallbacks ?? [],
      deleted: r.deleted,
      ...(r.deleted_at ? { deletedAt: r.deleted_at } : {}),
      ...(r.deleted_by ? { deletedBy: r.deleted_by } : {}),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }

  encryptCredentials(integration: Integration): string {
    return this.cipher.encrypt(JSON.stringify(integration.credentials));
  }
}

@Injectable()
export class SqlIntegrationRepository implements IntegrationRepository {
  private readonly rows: IntegrationRowMapper;
  private readonly activeLookups = new CallBatcher<{ scope: EnvironmentScope; query: ActiveIntegrationQuery }, Integration[]>(async (_, lookups) => {
    const found = await this.queryActive(lookups[0].scope, lookups[0].query);
    return lookups.map(() => [...found]);
  });

  constructor(
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(CREDENTIAL_CIPHER) cipher: CredentialCipher,
  ) {
    this.rows = new IntegrationRowMapper(cipher);
  }

  findActive(scope: EnvironmentScope, query: ActiveIntegrationQuery): Promise<Integration[]> {
    // Concurrent identical lookups (every step of a busy environment asks the same) share one read.
    return this.activeLookups.run(JSON.stringify([scope.organizationId, scope.environmentId, query.channel, query.providerId, query.identifier]), {
      scope,
      query,
    });
  }

  private async queryActive(scope: EnvironmentScope, query: ActiveIntegrationQuery): Promise<Integration[]> {
    const params: unknown[] = [scope.organizationId, scope.environmentId];
    const filters: string[] = [];
    for (const [column, value] of [
      ['channel', query.channel],
      ['provider_id', query.providerId],
      ['identifier', query.identifier],
    ] as const) {
      if (value === undefined) continue;
      params.push(value);
      filters.push(`AND ${column} = $${params.length}`);
    }
    const rows = await this.sql.query(
      `SELECT * FROM integrations
       WHERE organization_id = $1 AND environment_id = $2 AND active AND NOT deleted ${filters.join(' ')}
       ORDER BY created_at DESC, id DESC`,
      params,
    );
    return rows.map((r) => this.rows.toDomain(r));
  }

  async insert(i: Integration): Promise<InsertIntegrationResult> {
    const rows = await this.sql.query(
      `INSERT INTO integrations (id, organization_id, environment_id, name, identifier, provider_id, channel, credentials,
         configurations, active, is_primary, priority, conditions, deleted, deleted_at, deleted_by, created_at, updated_at, fallbacks)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13::jsonb, $14, $15, $16, $17, $18, $19::jsonb)
       ON CONFLICT DO NOTHING RETURNING id`,
      [
        i.id,
        i.organizationId,
        i.environmentId,
        i.name,
        i.identifier,
        i.providerId,
        i.channel,
        this.rows.encryptCredentials(i),
        JSON.stringify(i.configurations ?? {}),
        i.active,
        i.primary,
        i.priority,
        JSON.stringify(i.conditions ?? []),
        i.deleted,
        i.deletedAt ?? null,
        i.deletedBy ?? null,
        i.createdAt,
        i.updatedAt,
        JSON.stringify(i.fallbacks ?? []),
      ],
    );
    if (rows.length === 1) return 'inserted';
    // Nothing inserted: say which unique rule refused it.
    const [taken] = await this.sql.query('SELECT 1 FROM integrations WHERE environment_id = $1 AND identifier = $2 AND NOT deleted', [
      i.environmentId,
      i.identifier,
    ]);
    return taken ? 'identifier_taken' : 'in_app_taken';
  }

  async findById(scope: EnvironmentScope, id: string): Promise<Integration | null> {
    const [row] = await this.sql.query('SELECT * FROM integrations WHERE id = $1 AND organization_id = $2 AND environment_id = $3 AND NOT deleted', [
      id,
      scope.organizationId,
      scope.environmentId,
    ]);
    return row ? this.rows.toDomain(row) : null;
  }

  async list(scope: EnvironmentScope): Promise<Integration[]> {
    const rows = await this.sql.query(`SELECT * FROM integrations WHERE organization_id = $1 AND environment_id = $2 AND NOT deleted ORDER BY created_at, id`, [
      scope.organizationId,
      scope.environmentId,
    ]);
    return rows.map((r) => this.rows.toDomain(r));
  }

  async listActiveInOrganization(organizationId: string): Promise<Integration[]> {
    const rows = await this.sql.query('SELECT * FROM integrations WHERE organization_id = $1 AND active AND NOT deleted ORDER BY created_at, id', [
      organizationId,
    ]);
    return rows.map((r) => this.rows.toDomain(r));
  }

  async replace(scope: EnvironmentScope, i: Integration, expectedUpdatedAt: Date): Promise<ReplaceIntegrationResult> {
    try {
      const rows = await this.sql.query(
        `UPDATE integrations SET name = $4, identifier = $5, credentials = $6, configurations = $7::jsonb, active = $8,
           is_primary = $9, priority = $10, conditions = $11::jsonb, updated_at = $12, fallbacks = $14::jsonb
         WHERE id = $1 AND organization_id = $2 AND environment_id = $3 AND NOT deleted AND updated_at = $13
         RETURNING id`,
        [
          i.id,
          scope.organizationId,
          scope.environmentId,
          i.name,
          i.identifier,
          this.rows.encryptCredentials(i),
          JSON.stringify(i.configurations ?? {}),
          i.active,
          i.primary,
          i.priority,
          JSON.stringify(i.conditions ?? []),
          i.updatedAt,
          expectedUpdatedAt,
          JSON.stringify(i.fallbacks ?? []),
        ],
      );
      return rows.length === 1 ? 'updated' : 'stale';
    } catch (error) {
      // The only unique index an update can hit is the identifier's.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'identifier_taken';
      throw error;
    }
  }

  async setPriorities(scope: EnvironmentScope, changes: PriorityChange[]): Promise<void> {
    for (const change of changes) {
      await this.sql.query(
        `UPDATE integrations SET is_primary = $4, priority = $5
         WHERE id = $1 AND organization_id = $2 AND environment_id = $3 AND NOT deleted`,
        [change.id, scope.organizationId, scope.environmentId, change.primary, change.priority],
      );
    }
  }

  async softDelete(scope: EnvironmentScope, id: string, deletion: { deletedAt: Date; deletedBy: string }): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE integrations SET deleted = true, deleted_at = $4, deleted_by = $5
       WHERE id = $1 AND organization_id = $2 AND environment_id = $3 AND NOT deleted RETURNING id`,
      [id, scope.organizationId, scope.environmentId, deletion.deletedAt, deletion.deletedBy],
    );
    return rows.length === 1;
  }
}
