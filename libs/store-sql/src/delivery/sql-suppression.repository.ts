import { Inject, Injectable } from '@nestjs/common';
import { Suppression, SuppressionRepository } from '@app/delivery';
import { CallBatcher, EnvironmentScope, Page } from '@app/kernel';
import { SQL_CLIENT, SqlClient, textArray } from '../sql-client';
import { sql } from '../sql-statement';
import { NewRow, insertInto } from '../sql-table';
import { SuppressionRow, suppressions } from '../tables';
import { setPresent } from './sql-rows';

function toSuppression(row: SuppressionRow): Suppression {
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

/** The suppressions of the environment. */
const ofScope = (scope: EnvironmentScope) => sql`environment_id = ${scope.environmentId} AND organization_id = ${scope.organizationId}`;

@Injectable()
export class SqlSuppressionRepository implements SuppressionRepository {
  /** Grouped by environment: a batch of deliveries asks about many addresses of one environment at once. */
  private readonly byAddress = new CallBatcher<string, Suppression | null>(async (group, addresses) => {
    const scope = JSON.parse(group) as EnvironmentScope;
    const rows = await this.sql.query<SuppressionRow>(
      sql`SELECT * FROM suppressions WHERE ${ofScope(scope)} AND address = ANY(${textArray(addresses)}::text[])`,
    );
    const found = new Map(rows.map((row) => [row.address, row]));
    return addresses.map((address) => {
      const row = found.get(address);
      return row ? toSuppression(row) : null;
    });
  });

  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async insertIfAbsent(s: Suppression): Promise<boolean> {
    const row: NewRow<typeof suppressions> = {
      organization_id: s.organizationId,
      environment_id: s.environmentId,
      address: s.address,
      channel: s.channel,
      reason: s.reason,
      provider_id: s.providerId,
      message_id: s.messageId,
      detail: s.detail ?? null,
      created_at: s.createdAt,
    };
    const rows = await this.sql.query(sql`${insertInto(suppressions, [row])} ON CONFLICT DO NOTHING RETURNING address`);
    return rows.length === 1;
  }

  find(scope: EnvironmentScope, address: string): Promise<Suppression | null> {
    return this.byAddress.run(JSON.stringify({ organizationId: scope.organizationId, environmentId: scope.environmentId }), address);
  }

  async list(scope: EnvironmentScope, query: { page: number; limit: number }): Promise<Page<Suppression>> {
    const [rows, [count]] = await Promise.all([
      this.sql.query<SuppressionRow>(
        sql`SELECT * FROM suppressions WHERE ${ofScope(scope)} ORDER BY created_at DESC, address LIMIT ${query.limit} OFFSET ${query.page * query.limit}`,
      ),
      this.sql.query<{ total: number }>(sql`SELECT COUNT(*)::int AS total FROM suppressions WHERE ${ofScope(scope)}`),
    ]);
    return { items: rows.map(toSuppression), totalCount: Number(count.total) };
  }

  async delete(scope: EnvironmentScope, address: string): Promise<boolean> {
    const rows = await this.sql.query(sql`DELETE FROM suppressions WHERE ${ofScope(scope)} AND address = ${address} RETURNING address`);
    return rows.length === 1;
  }
}
