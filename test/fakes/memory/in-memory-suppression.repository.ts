import { Suppression, SuppressionRepository } from '@app/delivery';
import { EnvironmentScope, Page } from '@app/kernel';
import { copy, orderBy, stored, EnvironmentRecords, deleteEnvironmentRecords } from './memory-records';

const key = (environmentId: string, address: string) => JSON.stringify([environmentId, address]);
const newestFirst = orderBy<Suppression>(
  (s) => -s.createdAt.getTime(),
  (s) => s.address,
);

/** SuppressionRepository in memory: unique per (environment, address). */
export class InMemorySuppressionRepository implements SuppressionRepository, EnvironmentRecords {
  private readonly rows = new Map<string, Suppression>();

  purgeEnvironment(environmentId: string): number {
    return deleteEnvironmentRecords(this.rows, environmentId);
  }

  async insertIfAbsent(suppression: Suppression): Promise<boolean> {
    const k = key(suppression.environmentId, suppression.address);
    if (this.rows.has(k)) return false;
    this.rows.set(k, stored(suppression));
    return true;
  }

  async find(scope: EnvironmentScope, address: string): Promise<Suppression | null> {
    const row = this.rows.get(key(scope.environmentId, address));
    return row && row.organizationId === scope.organizationId ? copy(row) : null;
  }

  async list(scope: EnvironmentScope, query: { page: number; limit: number }): Promise<Page<Suppression>> {
    const matching = [...this.rows.values()]
      .filter((s) => s.environmentId === scope.environmentId && s.organizationId === scope.organizationId)
      .sort(newestFirst);
    return { items: matching.slice(query.page * query.limit, (query.page + 1) * query.limit).map(copy), totalCount: matching.length };
  }

  async delete(scope: EnvironmentScope, address: string): Promise<boolean> {
    const k = key(scope.environmentId, address);
    const row = this.rows.get(k);
    if (!row || row.organizationId !== scope.organizationId) return false;
    this.rows.delete(k);
    return true;
  }
}
