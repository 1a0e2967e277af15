import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, PageRequest } from '@app/kernel';
import { ListPage, WebhookAttempt, WebhookDelivery, WebhookDeliveryRepository, WebhookDeliveryStatus } from '@app/webhooks';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { Sql, empty, raw, sql } from '../sql-statement';
import { NewRow, insertInto } from '../sql-table';
import { WebhookAttemptRow, WebhookDeliveryRow, webhookAttempts, webhookDeliveries } from '../tables';

const toDeliveryRow = (d: WebhookDelivery): NewRow<typeof webhookDeliveries> => ({
  id: d.id,
  organization_id: d.organizationId,
  environment_id: d.environmentId,
  endpoint_id: d.endpointId,
  event_type: d.eventType,
  body: d.body,
  url: d.url ?? null,
  status: d.status,
  attempts: d.attempts,
  next_attempt_at: d.nextAttemptAt ?? null,
  created_at: d.createdAt,
  updated_at: d.updatedAt,
});

@Injectable()
export class SqlWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async insertMany(deliveries: WebhookDelivery[]): Promise<string[]> {
    if (!deliveries.length) return [];
    const rows = await this.sql.query<Pick<WebhookDeliveryRow, 'id'>>(
      sql`${insertInto(webhookDeliveries, deliveries.map(toDeliveryRow))} ON CONFLICT DO NOTHING RETURNING id`,
    );
    const inserted = new Set(rows.map((r) => r.id));
    return deliveries.map((d) => d.id).filter((id) => inserted.has(id));
  }

  async findById(id: string): Promise<WebhookDelivery | null> {
    const [row] = await this.sql.query<WebhookDeliveryRow>(sql`SELECT * FROM webhook_deliveries WHERE id = ${id}`);
    return row ? toDelivery(row) : null;
  }

  async recordAttempt(id: string, attempt: number, outcome: { status: WebhookDeliveryStatus; nextAttemptAt?: Date }, now: Date): Promise<boolean> {
    const rows = await this.sql.query(
      sql`UPDATE webhook_deliveries SET attempts = ${attempt}, status = ${outcome.status}, next_attempt_at = ${outcome.nextAttemptAt ?? null}, updated_at = ${now}
          WHERE id = ${id} AND attempts = ${attempt - 1} AND status = 'pending' RETURNING id`,
    );
    return rows.length === 1;
  }

  async drop(id: string, now: Date): Promise<void> {
    await this.sql.query(
      sql`UPDATE webhook_deliveries SET status = 'dropped', next_attempt_at = NULL, updated_at = ${now} WHERE id = ${id} AND status = 'pending'`,
    );
  }

  async findOverdue(before: Date, limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.sql.query<WebhookDeliveryRow>(
      sql`SELECT * FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at < ${before} ORDER BY next_attempt_at LIMIT ${limit}`,
    );
    return rows.map(toDelivery);
  }

  async appendAttempt(a: WebhookAttempt): Promise<void> {
    const row: NewRow<typeof webhookAttempts> = {
      id: a.id,
      organization_id: a.organizationId,
      environment_id: a.environmentId,
      endpoint_id: a.endpointId,
      delivery_id: a.deliveryId,
      event_type: a.eventType,
      attempt: a.attempt,
      status_code: a.statusCode ?? null,
      latency_ms: a.latencyMs ?? null,
      success: a.success,
      error: a.error ?? null,
      response_excerpt: a.responseExcerpt ?? null,
      created_at: a.createdAt,
    };
    await this.sql.query(sql`${insertInto(webhookAttempts, [row])} ON CONFLICT DO NOTHING`);
  }

  async listAttempts(scope: EnvironmentScope, endpointId: string, page: PageRequest): Promise<ListPage<WebhookAttempt>> {
    const rows = await this.sql.query<WebhookAttemptRow>(
      sql`SELECT * FROM webhook_attempts WHERE environment_id = ${scope.environmentId} AND endpoint_id = ${endpointId}
          ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1} OFFSET ${page.page * page.limit}`,
    );
    return { items: rows.slice(0, page.limit).map(toAttempt), hasMore: rows.length > page.limit };
  }

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const deleteFrom = async (table: Sql, condition: Sql) => {
      const [row] = await this.sql.query<{ deleted: number }>(
        sql`WITH doomed AS (
              SELECT r.id FROM ${table} r WHERE r.created_at < ${before} ${condition}
              ORDER BY r.created_at LIMIT ${limit} FOR UPDATE OF r SKIP LOCKED
            ), gone AS (DELETE FROM ${table} t WHERE t.id = ANY(ARRAY(SELECT id FROM doomed)) RETURNING 1)
            SELECT count(*)::int AS deleted FROM gone`,
      );
      return row.deleted;
    };
    return (await deleteFrom(raw('webhook_deliveries'), raw(`AND r.status <> 'pending'`))) + (await deleteFrom(raw('webhook_attempts'), empty));
  }

  async succeededSince(endpointId: string, since: Date): Promise<boolean> {
    const rows = await this.sql.query(sql`SELECT 1 FROM webhook_attempts WHERE endpoint_id = ${endpointId} AND success AND created_at >= ${since} LIMIT 1`);
    return rows.length > 0;
  }
}

function toDelivery(r: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    organizationId: r.organization_id,
    environmentId: r.environment_id,
    endpointId: r.endpoint_id,
    eventType: r.event_type,
    body: r.body,
    ...(r.url !== null ? { url: r.url } : {}),
    status: r.status,
    attempts: r.attempts,
    ...(r.next_attempt_at !== null ? { nextAttemptAt: r.next_attempt_at } : {}),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toAttempt(r: WebhookAttemptRow): WebhookAttempt {
  return {
    id: r.id,
    organizationId: r.organization_id,
    environmentId: r.environment_id,
    endpointId: r.endpoint_id,
    deliveryId: r.delivery_id,
    eventType: r.event_type,
    attempt: r.attempt,
    ...(r.status_code !== null ? { statusCode: r.status_code } : {}),
    ...(r.latency_ms !== null ? { latencyMs: r.latency_ms } : {}),
    success: r.success,
    ...(r.error !== null ? { error: r.error } : {}),
    ...(r.response_excerpt !== null ? { responseExcerpt: r.response_excerpt } : {}),
    createdAt: r.created_at,
  };
}
