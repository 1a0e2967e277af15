import { Inject, Injectable } from '@nestjs/common';
import { CREDENTIAL_CIPHER, CredentialCipher } from '@app/integrations';
import { EnvironmentScope, PageRequest } from '@app/kernel';
import { ListPage, SigningSecret, WebhookEndpoint, WebhookEndpointChanges, WebhookEndpointRepository } from '@app/webhooks';
import { SQL_CLIENT, SqlClient } from '../sql-client';

@Injectable()
export class SqlWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(CREDENTIAL_CIPHER) private readonly cipher: CredentialCipher,
  ) {}

  async insert(e: WebhookEndpoint): Promise<void> {
    await this.sql.query(
      `INSERT INTO webhook_endpoints (id, organization_id, environment_id, kind, url, description, event_types, disabled, disabled_reason, secrets, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12)`,
      this.params(e),
    );
  }

  async ensureReplyCallback(candidate: WebhookEndpoint): Promise<WebhookEndpoint> {
    await this.sql.query(
      `INSERT INTO webhook_endpoints (id, organization_id, environment_id, kind, url, description, event_types, disabled, disabled_reason, secrets, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING`,
      this.params({ ...candidate, kind: 'reply_callback' }),
    );
    const [row] = await this.sql.query(`SELECT * FROM webhook_endpoints WHERE environment_id = $1 AND kind = 'reply_callback'`, [candidate.environmentId]);
    return this.toDomain(row);
  }

  async findById(scope: EnvironmentScope, id: string): Promise<WebhookEndpoint | null> {
    const [row] = await this.sql.query('SELECT * FROM webhook_endpoints WHERE environment_id = $1 AND id = $2', [scope.environmentId, id]);
    return row ? this.toDomain(row) : null;
  }

  async list(scope: EnvironmentScope, page: PageRequest): Promise<ListPage<WebhookEndpoint>> {
    const rows = await this.sql.query(
      `SELECT * FROM webhook_endpoints WHERE environment_id = $1 AND kind = 'endpoint' ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      [scope.environmentId, page.limit + 1, page.page * page.limit],
    );
    return { items: rows.slice(0, page.limit).map((r) => this.toDomain(r)), hasMore: rows.length > page.limit };
  }

  async listEnabled(scope: EnvironmentScope): Promise<WebhookEndpoint[]> {
    const rows = await this.sql.query(
      `SELECT * FROM webhook_endpoints WHERE environment_id = $1 AND kind = 'endpoint' AND NOT disabled ORDER BY created_at, id`,
      [scope.environmentId],
    );
    return rows.map((r) => this.toDomain(r));
  }

  async update(scope: EnvironmentScope, id: string, changes: WebhookEndpointChanges, now: Date): Promise<WebhookEndpoint | null> {
    const sets: string[] = [];
    const params: unknown[] = [scope.environmentId, id, now];
    const set = (column: string, value: unknown, cast = '') => {
      params.push(value);
      sets.push(`${column} = $${params.length}${cast}`);
    };
    if (changes.url !== undefined) set('url', changes.url);
    if (changes.description !== undefined) set('description', changes.description);
    if (changes.eventTypes !== undefined) set('event_types', changes.eventTypes === null ? null : JSON.stringify(changes.eventTypes), '::jsonb');
    if (changes.disabled !== undefined) set('disabled', changes.disabled);
    if (changes.disabledReason !== undefined) set('disabled_reason', changes.disabledReason);
    if (changes.secrets !== undefined) set('secrets', this.encrypt(changes.secrets));
    const [row] = await this.sql.query(
      `UPDATE webhook_endpoints SET ${[...sets, 'updated_at = $3'].join(', ')} WHERE environment_id = $1 AND id = $2 RETURNING *`,
      params,
    );
    return row ? this.toDomain(row) : null;
  }

  async delete(scope: EnvironmentScope, id: string): Promise<boolean> {
    const rows = await this.sql.query(`DELETE FROM webhook_endpoints WHERE environment_id = $1 AND id = $2 AND kind = 'endpoint' RETURNING id`, [
      scope.environmentId,
      id,
    ]);
    return rows.length === 1;
  }

  private params(e: WebhookEndpoint): unknown[] {
    return [
      e.id,
      e.organizationId,
      e.environmentId,
      e.kind,
      e.url,
      e.description ?? null,
      e.eventTypes ? JSON.stringify(e.eventTypes) : null,
      e.disabled,
      e.disabledReason ?? null,
      this.encrypt(e.secrets),
      e.createdAt,
      e.updatedAt,
    ];
  }

  private encrypt(secrets: SigningSecret[]): string {
    return this.cipher.encrypt(JSON.stringify(secrets.map((s) => ({ secret: s.secret, ...(s.expiresAt ? { expiresAt: s.expiresAt.toISOString() } : {}) }))));
  }

  private toDomain(r: any): WebhookEndpoint {
    const secrets = (JSON.parse(this.cipher.decrypt(r.secrets)) as { secret: string; expiresAt?: string }[]).map((s) => ({
      secret: s.secret,
      ...(s.expiresAt ? { expiresAt: new Date(s.expiresAt) } : {}),
    }));
    return {
      id: r.id,
      organizationId: r.organization_id,
      environmentId: r.environment_id,
      kind: r.kind,
      url: r.url,
      ...(r.description !== null ? { description: r.description } : {}),
      ...(r.event_types !== null ? { eventTypes: r.event_types } : {}),
      disabled: r.disabled,
      ...(r.disabled_reason !== null ? { disabledReason: r.disabled_reason } : {}),
      secrets,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }
}
