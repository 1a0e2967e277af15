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
import { Sql, join, sql } from '../sql-statement';
import { NewRow, assignments, insertInto } from '../sql-table';
import { IntegrationRow, integrations } from '../tables';

const UNIQUE_VIOLATION = '23505';
const EXCLUSION_VIOLATION = '23P01';
const DEADLOCK_DETECTED = '40P01';

/**
 * One statement: locks the channel's active integrations (in id order, so two rankings never wait on
 * each other crosswise), and writes the changes only if those are exactly the expected ones (same ids,
 * flags, priorities and times). In READ COMMITTED the locked rows are their latest versions, so a
 * ranking that read before another one was written finds them changed. The exclusion constraint
 * (migration 31) refuses a duplicate priority whatever slipped past.
 */
const rankChannel = (scope: EnvironmentScope, channel: Channel, expected: string, changes: string) => sql`
WITH current AS MATERIALIZED (
  SELECT id, is_primary, priority, updated_at FROM integrations
  WHERE organization_id = ${scope.organizationId} AND environment_id = ${scope.environmentId} AND channel = ${channel} AND active AND NOT deleted
  ORDER BY id FOR UPDATE
), expected AS (
  SELECT * FROM jsonb_to_recordset(${expected}::jsonb) AS e(id text, "primary" boolean, priority integer, updated_at timestamptz)
), unchanged AS (
  SELECT (SELECT count(*) FROM current) = (SELECT count(*) FROM expected)
     AND (SELECT count(*) FROM current c JOIN expected e
            ON e.id = c.id AND e."primary" = c.is_primary AND e.priority = c.priority AND e.updated_at = c.updated_at) = (SELECT count(*) FROM expected) AS holds
)
UPDATE integrations i SET is_primary = c."primary", priority = c.priority, updated_at = c.updated_at
FROM jsonb_to_recordset(${changes}::jsonb) AS c(id text, "primary" boolean, priority integer, updated_at timestamptz), unchanged u
WHERE u.holds AND i.id = c.id AND i.id IN (SELECT id FROM current)
RETURNING i.id`;

/** Maps rows to the domain (decrypting credentials) and back; optional fields stay absent, not null. */
class IntegrationRowMapper {
  constructor(private readonly cipher: CredentialCipher) {}

  toDomain(r: IntegrationRow): Integration {
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
      ...(r.rate_limit ? { rateLimit: r.rate_limit } : {}),
      ...(r.max_concurrency ? { maxConcurrency: r.max_concurrency } : {}),
      deleted: r.deleted,
      ...(r.deleted_at ? { deletedAt: r.deleted_at } : {}),
      ...(r.deleted_by ? { deletedBy: r.deleted_by } : {}),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }

  /** The columns an integration writes (insert, replace): credentials encrypted. */
  toRow(i: Integration): NewRow<typeof integrations> {
    return {
      id: i.id,
      organization_id: i.organizationId,
      environment_id: i.environmentId,
      name: i.name,
      identifier: i.identifier,
      provider_id: i.providerId,
      channel: i.channel,
      credentials: this.cipher.encrypt(JSON.stringify(i.credentials)),
      configurations: i.configurations ?? {},
      active: i.active,
      is_primary: i.primary,
      priority: i.priority,
      conditions: i.conditions ?? [],
      deleted: i.deleted,
      deleted_at: i.deletedAt ?? null,
      deleted_by: i.deletedBy ?? null,
      created_at: i.createdAt,
      updated_at: i.updatedAt,
      fallbacks: i.fallbacks ?? [],
      rate_limit: i.rateLimit ?? null,
      max_concurrency: i.maxConcurrency ?? null,
    };
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
    const filters: Sql[] = [];
    if (query.channel !== undefined) filters.push(sql`AND channel = ${query.channel}`);
    if (query.providerId !== undefined) filters.push(sql`AND provider_id = ${query.providerId}`);
    if (query.identifier !== undefined) filters.push(sql`AND identifier = ${query.identifier}`);
    const rows = await this.sql.query<IntegrationRow>(
      sql`SELECT * FROM integrations
          WHERE organization_id = ${scope.organizationId} AND environment_id = ${scope.environmentId} AND active AND NOT deleted ${join(filters, ' ')}
          ORDER BY created_at DESC, id DESC`,
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
    const [taken] = await this.sql.query(
      sql`SELECT 1 FROM integrations WHERE environment_id = ${i.environmentId} AND identifier = ${i.identifier} AND NOT deleted`,
    );
    return taken ? 'identifier_taken' : 'in_app_taken';
  }

  private async insertRow(i: Integration): Promise<void> {
    await this.sql.query(insertInto(integrations, [this.rows.toRow(i)]));
  }

  async findById(scope: EnvironmentScope, id: string): Promise<Integration | null> {
    const [row] = await this.sql.query<IntegrationRow>(
      sql`SELECT * FROM integrations WHERE id = ${id} AND organization_id = ${scope.organizationId} AND environment_id = ${scope.environmentId} AND NOT deleted`,
    );
    return row ? this.rows.toDomain(row) : null;
  }

  async list(scope: EnvironmentScope): Promise<Integration[]> {
    const rows = await this.sql.query<IntegrationRow>(
      sql`SELECT * FROM integrations WHERE organization_id = ${scope.organizationId} AND environment_id = ${scope.environmentId} AND NOT deleted
          ORDER BY created_at, id`,
    );
    return rows.map((r) => this.rows.toDomain(r));
  }

  async listActiveInOrganization(organizationId: string): Promise<Integration[]> {
    const rows = await this.sql.query<IntegrationRow>(
      sql`SELECT * FROM integrations WHERE organization_id = ${organizationId} AND active AND NOT deleted ORDER BY created_at, id`,
    );
    return rows.map((r) => this.rows.toDomain(r));
  }

  async replace(scope: EnvironmentScope, i: Integration, expectedUpdatedAt: Date): Promise<ReplaceIntegrationResult> {
    const row = this.rows.toRow(i);
    const set = assignments(integrations, {
      name: row.name,
      identifier: row.identifier,
      credentials: row.credentials,
      configurations: row.configurations,
      active: row.active,
      is_primary: row.is_primary,
      priority: row.priority,
      conditions: row.conditions,
      updated_at: row.updated_at,
      fallbacks: row.fallbacks,
      rate_limit: row.rate_limit,
      max_concurrency: row.max_concurrency,
    });
    try {
      const rows = await this.sql.query(
        sql`UPDATE integrations SET ${set}
            WHERE id = ${i.id} AND organization_id = ${scope.organizationId} AND environment_id = ${scope.environmentId} AND NOT deleted
              AND updated_at = ${expectedUpdatedAt}
            RETURNING id`,
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
      const rows = await this.sql.query(rankChannel(scope, channel, ranking(expected), ranking(changes)));
      return rows.length === changes.length ? 'ranked' : 'stale';
    } catch (error) {
      // Two active integrations of the channel on one priority (an integration the expected ranking did not know), or two rankings locking each other.
      if ([EXCLUSION_VIOLATION, DEADLOCK_DETECTED].includes((error as { code?: string }).code ?? '')) return 'stale';
      throw error;
    }
  }

  async softDelete(scope: EnvironmentScope, id: string, deletion: { deletedAt: Date; deletedBy: string }): Promise<boolean> {
    const rows = await this.sql.query(
      sql`UPDATE integrations SET deleted = true, deleted_at = ${deletion.deletedAt}, deleted_by = ${deletion.deletedBy}
          WHERE id = ${id} AND organization_id = ${scope.organizationId} AND environment_id = ${scope.environmentId} AND NOT deleted RETURNING id`,
    );
    return rows.length === 1;
  }
}
