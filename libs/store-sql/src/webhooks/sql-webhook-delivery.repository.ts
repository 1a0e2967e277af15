import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, PageRequest } from '@app/kernel';
import { ListPage, WebhookAttempt, WebhookDelivery, WebhookDeliveryRepository, WebhookDeliveryStatus } from '@app/webhooks';
import { SQL_CLIENT, SqlClient } from '../sql-client';

@Injectable()
export class SqlWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(@Inject(SQL_CLIENT) private readonly sql: SqlClient) {}

  async insertMany(deliveries: WebhookDelivery[]): Promise<string[]> {
    if (!deliveries.length) return [];
    const columns = 12;
    const values: string[] = [];
    const params: unknown[] = [];
    deliveries.forEach((d, index) => {
      const base = index * columns;
      values.push(`(${Array.from({ length: columns }, (_, i) => `$${base + i + 1}`).join(', ')})`);
      params.push(
        d.id,
        d.organizationId,
        d.environmentId,
        d.endpointId,
        d.eventType,
        d.body,
        d.url ?? null,
        d.status,
        d.attempts,
        d.nextAttemptAt ?? null,
        d.createdAt,
        d.updatedAt,
      );
    });
    const rows = await this.sql.query<{ id: string }>(
      `INSERT INTO webhook_deliveries (id, organization_id, environment_id, endpoint_id, event_type, body, url, status, attempts, next_attempt_at, created_at, updated_at)
       VALUES ${values.join(', ')} ON CONFLICT DO NOTHING RETURNING id`,
      params,
    );
    const inserted = new Set(rows.map((r) => r.id));
    return deliveries.map((d) => d.id).filter((id) => inserted.has(id));
  }

  async findById(id: string): Promise<WebhookDelivery | null> {
    const [row] = await this.sql.query('SELECT * FROM webhook_deliveries WHERE id = $1', [id]);
    return row ? toDelivery(row) : null;
  }

  async recordAttempt(id: string, attempt: number, outcome: { status: WebhookDeliveryStatus; nextAttemptAt?: Date }, now: Date): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE webhook_deliveries SET attempts = $2, status = $3, next_attempt_at = $4, updated_at = $5
       WHERE id = $1 AND attempts = $2 - 1 AND status = 'pending' RETURNING id`,
      [id, attempt, outcome.status, outcome.nextAttemptAt ?? null, now],
    );
    return rows.length === 1;
  }

  async drop(id: string, now: Date): Promise<void> {
    await this.sql.query(`UPDATE webhook_deliveries SET status = 'dropped', next_attempt_at = NULL, updated_at = $2 WHERE id = $1 AND status = 'pending'`, [
      id,
      now,
    ]);
  }

  async findOverdue(before: Date, limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.sql.query(`SELECT * FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at < $1 ORDER BY next_attempt_at LIMIT $2`, [
      before,
      limit,
    ]);
    return rows.map(toDelivery);
  }

  async appendAttempt(a: WebhookAttempt): Promise<void> {
    await this.sql.query(
      `INSERT INTO webhook_attempts (id, organization_id, environment_id, endpoint_id, delivery_id, event_type, attempt, status_code, latency_ms, success, error, response_excerpt, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING`,
      [
        a.id,
        a.organizationId,
        a.environmentId,
        a.endpointId,
        a.deliveryId,
        a.eventType,
        a.attempt,
        a.statusCode ?? null,
        a.latencyMs ?? null,
        a.success,
        a.error ?? null,
        a.responseExcerpt ?? null,
        a.createdAt,
      ],
    );
  }

  async listAttempts(scope: EnvironmentScope, endpointId: string, page: PageRequest): Promise<ListPage<WebhookAttempt>> {
    const rows = await this.sql.query(
      `SELECT * FROM webhook_attempts WHERE environment_id = $1 AND endpoint_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
      [scope.environmentId, endpointId, page.limit + 1, page.page * page.limit],
    );
    return { items: rows.slice(0, page.limit).map(toAttempt), hasMore: rows.length > page.limit };
  }

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const deleteFrom = async (table: string, condition: string) => {
      const [row] = await this.sql.query<{ deleted: number }>(
        `WITH doomed AS (
           SELECT r.id FROM ${table} r WHERE r.created_at < $1 ${condition}
           ORDER BY r.created_at LIMIT $2 FOR UPDATE OF r SKIP LOCKED
         ), gone AS (DELETE FROM ${table} t WHERE t.id = ANY(ARRAY(SELECT id FROM doomed)) RETURNING 1)
         SELECT count(*)::int AS deleted FROM gone`,
        [before, limit],
      );
      return row.deleted;
    };
    return (await deleteFrom('webhook_deliveries', `AND r.status <> 'pending'`)) + (await deleteFrom('webhook_attempts', ''));
  }

  async succeededSince(endpointId: string, since: Date): Promise<boolean> {
    const rows = await this.sql.query('SELECT 1 FROM webhook_attempts WHERE endpoint_id = $1 AND success AND created_at >= $2 LIMIT 1', [endpointId, since]);
    return rows.length > 0;
  }
}

function toDelivery(r: any): WebhookDelivery {
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

function toAttempt(r: any): WebhookAttempt {
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
