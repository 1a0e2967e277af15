import { EnvironmentScope, PageRequest } from '@app/kernel';
import { ListPage, WebhookEndpoint, WebhookEndpointChanges, WebhookEndpointRepository } from '@app/webhooks';
import { orderBy, stored, uniqueViolation, EnvironmentRecords, deleteEnvironmentRecords } from './memory-records';

const byCreation = orderBy<WebhookEndpoint>(
  (e) => e.createdAt,
  (e) => e.id,
);

/** WebhookEndpointRepository in memory (secrets kept as given: there is no disk to encrypt for). */
export class InMemoryWebhookEndpointRepository implements WebhookEndpointRepository, EnvironmentRecords {
  private readonly rows = new Map<string, WebhookEndpoint>();

  purgeEnvironment(environmentId: string): number {
    return deleteEnvironmentRecords(this.rows, environmentId);
  }

  async insert(endpoint: WebhookEndpoint): Promise<void> {
    if (this.rows.has(endpoint.id)) throw uniqueViolation('webhook_endpoints');
    this.rows.set(endpoint.id, stored(endpoint));
  }

  async ensureReplyCallback(candidate: WebhookEndpoint): Promise<WebhookEndpoint> {
    const existing = [...this.rows.values()].find((e) => e.environmentId === candidate.environmentId && e.kind === 'reply_callback');
    if (existing) return structuredClone(existing);
    const row = stored({ ...candidate, kind: 'reply_callback' as const });
    this.rows.set(row.id, row);
    return structuredClone(row);
  }

  async findById(scope: EnvironmentScope, id: string): Promise<WebhookEndpoint | null> {
    const row = this.rows.get(id);
    return row && row.environmentId === scope.environmentId ? structuredClone(row) : null;
  }

  async list(scope: EnvironmentScope, page: PageRequest): Promise<ListPage<WebhookEndpoint>> {
    const rows = this.endpoints(scope);
    const start = page.page * page.limit;
    return { items: rows.slice(start, start + page.limit).map((r) => structuredClone(r)), hasMore: rows.length > start + page.limit };
  }

  async listEnabled(scope: EnvironmentScope): Promise<WebhookEndpoint[]> {
    return this.endpoints(scope)
      .filter((e) => !e.disabled)
      .map((r) => structuredClone(r));
  }

  async update(scope: EnvironmentScope, id: string, changes: WebhookEndpointChanges, now: Date): Promise<WebhookEndpoint | null> {
    const row = this.rows.get(id);
    if (!row || row.environmentId !== scope.environmentId) return null;
    const next: WebhookEndpoint = { ...row, updatedAt: now };
    if (changes.url !== undefined) next.url = changes.url;
    if (changes.disabled !== undefined) next.disabled = changes.disabled;
    if (changes.secrets !== undefined) next.secrets = changes.secrets;
    for (const field of ['description', 'eventTypes', 'disabledReason'] as const) {
      const value = changes[field];
      if (value === undefined) continue;
      if (value === null) delete next[field];
      else (next as unknown as Record<string, unknown>)[field] = value;
    }
    this.rows.set(id, stored(next));
    return structuredClone(next);
  }

  async delete(scope: EnvironmentScope, id: string): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.environmentId !== scope.environmentId || row.kind !== 'endpoint') return false;
    return this.rows.delete(id);
  }

  private endpoints(scope: EnvironmentScope): WebhookEndpoint[] {
    return [...this.rows.values()].filter((e) => e.environmentId === scope.environmentId && e.kind === 'endpoint').sort(byCreation);
  }
}
