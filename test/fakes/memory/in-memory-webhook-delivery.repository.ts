import { EnvironmentScope, PageRequest } from '@app/kernel';
import { ListPage, WebhookAttempt, WebhookDelivery, WebhookDeliveryRepository, WebhookDeliveryStatus } from '@app/webhooks';
import { stored, EnvironmentRecords, deleteEnvironmentRecords } from './memory-records';

/** created_at DESC, id DESC, as the SQL adapter orders. */
const newestFirst = (a: WebhookAttempt, b: WebhookAttempt) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** WebhookDeliveryRepository in memory: the outbox and the attempts log. */
export class InMemoryWebhookDeliveryRepository implements WebhookDeliveryRepository, EnvironmentRecords {
  private readonly deliveries = new Map<string, WebhookDelivery>();
  private readonly attempts = new Map<string, WebhookAttempt>();

  purgeEnvironment(environmentId: string): number {
    return deleteEnvironmentRecords(this.deliveries, environmentId) + deleteEnvironmentRecords(this.attempts, environmentId);
  }

  async insertMany(deliveries: WebhookDelivery[]): Promise<string[]> {
    const inserted: string[] = [];
    for (const delivery of deliveries) {
      if (this.deliveries.has(delivery.id)) continue;
      this.deliveries.set(delivery.id, stored(delivery));
      inserted.push(delivery.id);
    }
    return inserted;
  }

  async findById(id: string): Promise<WebhookDelivery | null> {
    const row = this.deliveries.get(id);
    return row ? structuredClone(row) : null;
  }

  async recordAttempt(id: string, attempt: number, outcome: { status: WebhookDeliveryStatus; nextAttemptAt?: Date }, now: Date): Promise<boolean> {
    const row = this.deliveries.get(id);
    if (!row || row.status !== 'pending' || row.attempts !== attempt - 1) return false;
    const next: WebhookDelivery = { ...row, attempts: attempt, status: outcome.status, updatedAt: now };
    if (outcome.nextAttemptAt) next.nextAttemptAt = outcome.nextAttemptAt;
    else delete next.nextAttemptAt;
    this.deliveries.set(id, next);
    return true;
  }

  async drop(id: string, now: Date): Promise<void> {
    const row = this.deliveries.get(id);
    if (!row || row.status !== 'pending') return;
    const { nextAttemptAt: _dropped, ...rest } = row;
    this.deliveries.set(id, { ...rest, status: 'dropped', updatedAt: now });
  }

  async findOverdue(before: Date, limit: number): Promise<WebhookDelivery[]> {
    return [...this.deliveries.values()]
      .filter((d) => d.status === 'pending' && d.nextAttemptAt && d.nextAttemptAt.getTime() < before.getTime())
      .sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime())
      .slice(0, limit)
      .map((d) => structuredClone(d));
  }

  async appendAttempt(attempt: WebhookAttempt): Promise<void> {
    if (!this.attempts.has(attempt.id)) this.attempts.set(attempt.id, stored(attempt));
  }

  async listAttempts(scope: EnvironmentScope, endpointId: string, page: PageRequest): Promise<ListPage<WebhookAttempt>> {
    const rows = [...this.attempts.values()].filter((a) => a.environmentId === scope.environmentId && a.endpointId === endpointId).sort(newestFirst);
    const start = page.page * page.limit;
    return { items: rows.slice(start, start + page.limit).map((r) => structuredClone(r)), hasMore: rows.length > start + page.limit };
  }

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const oldest = <T extends { id: string; createdAt: Date }>(rows: Iterable<T>, eligible: (row: T) => boolean) =>
      [...rows]
        .filter((row) => row.createdAt.getTime() < before.getTime() && eligible(row))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .slice(0, limit);
    const deliveries = oldest(this.deliveries.values(), (d) => d.status !== 'pending');
    const attempts = oldest(this.attempts.values(), () => true);
    deliveries.forEach((d) => this.deliveries.delete(d.id));
    attempts.forEach((a) => this.attempts.delete(a.id));
    return deliveries.length + attempts.length;
  }

  async succeededSince(endpointId: string, since: Date): Promise<boolean> {
    return [...this.attempts.values()].some((a) => a.endpointId === endpointId && a.success && a.createdAt.getTime() >= since.getTime());
  }
}
