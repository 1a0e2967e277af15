import { Inject, Injectable } from '@nestjs/common';
import { CREDENTIAL_CIPHER, CredentialCipher } from '@app/integrations';
import { EnvironmentScope, PageRequest } from '@app/kernel';
import { ListPage, SigningSecret, WebhookEndpoint, WebhookEndpointChanges, WebhookEndpointRepository } from '@app/webhooks';
import { SQL_CLIENT, SqlClient } from '../sql-client';
import { sql } from '../sql-statement';
import { NewRow, assignments, insertInto } from '../sql-table';
import { WebhookEndpointRow, webhookEndpoints } from '../tables';

@Injectable()
export class SqlWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(
    @Inject(SQL_CLIENT) private readonly sql: SqlClient,
    @Inject(CREDENTIAL_CIPHER) private readonly cipher: CredentialCipher,
  ) {}

  async insert(e: WebhookEndpoint): Promise<void> {
    await this.sql.query(insertInto(webhookEndpoints, [this.toRow(e)]));
  }

  async ensureReplyCallback(candidate: WebhookEndpoint): Promise<WebhookEndpoint> {
    await this.sql.query(sql`${insertInto(webhookEndpoints, [this.toRow({ ...candidate, kind: 'reply_callback' })])} ON CONFLICT DO NOTHING`);
    const [row] = await this.sql.query<WebhookEndpointRow>(
      sql`SELECT * FROM webhook_endpoints WHERE environment_id = ${candidate.environmentId} AND kind = 'reply_callback'`,
    );
    return this.toDomain(row);
  }

  async findById(scope: EnvironmentScope, id: string): Promise<WebhookEndpoint | null> {
    const [row] = await this.sql.query<WebhookEndpointRow>(sql`SELECT * FROM webhook_endpoints WHERE environment_id = ${scope.environmentId} AND id = ${id}`);
    return row ? this.toDomain(row) : null;
  }

  async list(scope: EnvironmentScope, page: PageRequest): Promise<ListPage<WebhookEndpoint>> {
    const rows = await this.sql.query<WebhookEndpointRow>(
      sql`SELECT * FROM webhook_endpoints WHERE environment_id = ${scope.environmentId} AND kind = 'endpoint'
          ORDER BY created_at, id LIMIT ${page.limit + 1} OFFSET ${page.page * page.limit}`,
    );
    return { items: rows.slice(0, page.limit).map((r) => this.toDomain(r)), hasMore: rows.length > page.limit };
  }

  async listEnabled(scope: EnvironmentScope): Promise<WebhookEndpoint[]> {
    const rows = await this.sql.query<WebhookEndpointRow>(
      sql`SELECT * FROM webhook_endpoints WHERE environment_id = ${scope.environmentId} AND kind = 'endpoint' AND NOT disabled ORDER BY created_at, id`,
    );
    return rows.map((r) => this.toDomain(r));
  }

  async update(scope: EnvironmentScope, id: string, changes: WebhookEndpointChanges, now: Date): Promise<WebhookEndpoint | null> {
    const set = assignments(webhookEndpoints, {
      url: changes.url,
      description: changes.description,
      event_types: changes.eventTypes,
      disabled: changes.disabled,
      disabled_reason: changes.disabledReason,
      secrets: changes.secrets === undefined ? undefined : this.encrypt(changes.secrets),
      updated_at: now,
    });
    const [row] = await this.sql.query<WebhookEndpointRow>(
      sql`UPDATE webhook_endpoints SET ${set} WHERE environment_id = ${scope.environmentId} AND id = ${id} RETURNING *`,
    );
    return row ? this.toDomain(row) : null;
  }

  async delete(scope: EnvironmentScope, id: string): Promise<boolean> {
    const rows = await this.sql.query(
      sql`DELETE FROM webhook_endpoints WHERE environment_id = ${scope.environmentId} AND id = ${id} AND kind = 'endpoint' RETURNING id`,
    );
    return rows.length === 1;
  }

  private toRow(e: WebhookEndpoint): NewRow<typeof webhookEndpoints> {
    return {
      id: e.id,
      organization_id: e.organizationId,
      environment_id: e.environmentId,
      kind: e.kind,
      url: e.url,
      description: e.description ?? null,
      event_types: e.eventTypes ?? null,
      disabled: e.disabled,
      disabled_reason: e.disabledReason ?? null,
      secrets: this.encrypt(e.secrets),
      created_at: e.createdAt,
      updated_at: e.updatedAt,
    };
  }

  private encrypt(secrets: SigningSecret[]): string {
    return this.cipher.encrypt(JSON.stringify(secrets.map((s) => ({ secret: s.secret, ...(s.expiresAt ? { expiresAt: s.expiresAt.toISOString() } : {}) }))));
  }

  private toDomain(r: WebhookEndpointRow): WebhookEndpoint {
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
