import { Inject, Injectable } from '@nestjs/common';
import {
  ActiveIntegrationQuery,
  CREDENTIAL_CIPHER,
  CredentialCipher,
  InsertIntegrationResult,
  Integration,
  IntegrationRepository,
  PriorityChange,
  RankIntegrationsResult,
  RankedIntegration,
  ReplaceIntegrationResult,
} from '@app/integrations';
import { CallBatcher, Channel, EnvironmentScope } from '@app/kernel';
import { SQL_CLIENT, SqlClient } from '../sql-client';

const UNIQUE_VIOLATION = '23505';
const EXCLUSION_VIOLATION = '23P01';
const DEADLOCK_DETECTED = '40P01';

/**
 * One statement: locks the channel's active integrations (in id order, so two rankings never wait on
 * each other crosswise), and writes the changes only if those are exactly the expected ones ($4:
 * same ids, flags, priorities and times). In READ COMMITTED the locked rows are their latest
 * versions, so a ranking that read before another one was written finds them changed. The exclusion
 * constraint (migration 31) refuses a duplicate priority whatever slipped past.
 */
const RANK_CHANNEL = `
WITH current AS MATERIALIZED (
  SELECT id, is_primary, priority, updated_at FROM integrations
  WHERE organization_id = $1 AND environment_id = $2 AND channel = $3 AND active AND NOT deleted
  ORDER BY id FOR UPDATE
), expected AS (
  SELECT * FROM jsonb_to_recordset($4::jsonb) AS e(id text, "primary" boolean, priority integer, updated_at timestamptz)
), unchanged AS (
  SELECT (SELECT count(*) FROM current) = (SELECT count(*) FROM expected)
     AND (SELECT count(*) FROM current c JOIN expected e
            ON e.id = c.id AND e."primary" = c.is_primary AND e.priority = c.priority AND e.updated_at = c.updated_at) = (SELECT count(*) FROM expected) AS holds
)
UPDATE integrations i SET is_primary = c."primary", priority = c.priority, updated_at = c.updated_at
FROM jsonb_to_recordset($5::jsonb) AS c(id text, "primary" boolean, priority integer, updated_at timestamptz), unchanged u
WHERE u.holds AND i.id = c.id AND i.id IN (SELECT id FROM current)
RETURNING i.id`;

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
    try {
      await this.insertRow(i);
      return 'inserted';
    } catch (error) {
      // No ON CONFLICT DO NOTHING: it takes no deferrable constraint (the priority's) as an arbiter.
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
    }
    // Refused by a unique index: say which rule refused it.
    const [taken] = await this.sql.query('SELECT 1 FROM integrations WHERE environment_id = $1 AND identifier = $2 AND NOT deleted', [
      i.environmentId,
      i.identifier,
    ]);
    return taken ? 'identifier_taken' : 'in_app_taken';
  }

  private async insertRow(i: Integration): Promise<void> {
    await this.sql.query(
      `INSERT INTO integrations (id, organization_id, environment_id, name, identifier, provider_id, channel, credentials,
         configurations, active, is_primary, priority, conditions, deleted, deleted_at, deleted_by, created_at, updated_at, fallbacks)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13::jsonb, $14, $15, $16, $17, $18, $19::jsonb)`,
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

  async rank(scope: EnvironmentScope, channel: Channel, expected: RankedIntegration[], changes: PriorityChange[]): Promise<RankIntegrationsResult> {
    const ranking = (integrations: { id: string; primary: boolean; priority: number; updatedAt: Date }[]) =>
      JSON.stringify(integrations.map(({ id, primary, priority, updatedAt }) => ({ id, primary, priority, updated_at: updatedAt })));
    try {
      const rows = await this.sql.query(RANK_CHANNEL, [scope.organizationId, scope.environmentId, channel, ranking(expected), ranking(changes)]);
      return rows.length === changes.length ? 'ranked' : 'stale';
    } catch (error) {
      // Two active integrations of the channel on one priority (an integration the expected ranking did not know), or two rankings locking each other.
      if ([EXCLUSION_VIOLATION, DEADLOCK_DETECTED].includes((error as { code?: string }).code ?? '')) return 'stale';
      throw error;
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
