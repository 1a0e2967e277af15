import { Inject, Injectable } from '@nestjs/common';
import { Suppression, SuppressionRepository } from '@app/delivery';
import { EnvironmentScope, Page } from '@app/kernel';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { setPresent } from './sql-rows';

function toSuppression(row: any): Suppression {
  return setPresent<Suppression>(
    {
      organizationId: row.organization_id,
      environmentId: row.environment_id,
      address: row.address,
      channel: row.channel,
      reason: row.reason,
      providerId: row.provider_id,
      messageId: row.message_id,
      createdAt: row.created_at,
    },
    { detail: row.detail },
  );
}

@Injectable()
export class SqlSuppressionRepository implements SuppressionRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async insertIfAbsent(s: Suppression): Promise<boolean> {
    const rows = await this.sql.query(
      `INSERT INTO suppressions (organization_id, environment_id, address, channel, reason, provider_id, message_id, detail, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING address`,
      [s.organizationId, s.environmentId, s.address, s.channel, s.reason, s.providerId, s.messageId, s.detail ?? null, s.createdAt],
    );
    return rows.length === 1;
  }

  async find(scope: EnvironmentScope, address: string): Promise<Suppression | null> {
    const [row] = await this.sql.query('SELECT * FROM suppressions WHERE environment_id = $1 AND organization_id = $2 AND address = $3', [
      scope.environmentId,
      scope.organizationId,
      address,
    ]);
    return row ? toSuppression(row) : null;
  }

  async list(scope: EnvironmentScope, query: { page: number; limit: number }): Promise<Page<Suppression>> {
    const params = [scope.environmentId, scope.organizationId];
    const [rows, [count]] = await Promise.all([
      this.sql.query('SELECT * FROM suppressions WHERE environment_id = $1 AND organization_id = $2 ORDER BY created_at DESC, address LIMIT $3 OFFSET $4', [
        ...params,
        query.limit,
        query.page * query.limit,
      ]),
      this.sql.query<{ total: number }>('SELECT COUNT(*)::int AS total FROM suppressions WHERE environment_id = $1 AND organization_id = $2', params),
    ]);
    return { items: rows.map(toSuppression), totalCount: Number(count.total) };
  }

  async delete(scope: EnvironmentScope, address: string): Promise<boolean> {
    const rows = await this.sql.query('DELETE FROM suppressions WHERE environment_id = $1 AND organization_id = $2 AND address = $3 RETURNING address', [
      scope.environmentId,
      scope.organizationId,
      address,
    ]);
    return rows.length === 1;
  }
}
