import { TriggerRecord, TriggerRepository, TriggerStatus } from '@app/delivery';
import { Clock, EnvironmentScope, systemClock } from '@app/kernel';
import { copy, oldestBefore, orderBy, shaped, stored, EnvironmentRecords, deleteEnvironmentRecords } from './memory-records';

/** Statuses a cancel may still move (a canceled trigger stays as it is). */
const CANCELABLE: readonly TriggerStatus[] = ['accepted', 'processed'];
/** Statuses after which nothing reads a trigger again (retention may delete it). */
const FINISHED: readonly TriggerStatus[] = ['processed', 'canceled', 'failed'];

const toTriggerRecord = (t: TriggerRecord): TriggerRecord =>
  shaped(
    t,
    [
      'id',
      'organizationId',
      'environmentId',
      'transactionId',
      'workflowId',
      'workflowIdentifier',
      'to',
      'payload',
      'overrides',
      'status',
      'createdAt',
      'updatedAt',
    ],
    ['actor', 'tenant', 'contextKeys', 'fanOutJobId', 'broadcast', 'timeOrderedIds'],
  );

/** TriggerRepository in memory: one trigger per (environment, transactionId) until retention deletes it. */
export class InMemoryTriggerRepository implements TriggerRepository, EnvironmentRecords {
  private readonly rows = new Map<string, TriggerRecord>();

  purgeEnvironment(environmentId: string): number {
    return deleteEnvironmentRecords(this.rows, environmentId);
  }

  constructor(private readonly clock: Clock = systemClock) {}

  async insertIfAbsent(record: TriggerRecord): Promise<boolean> {
    const given = toTriggerRecord(stored(record));
    // Skipped on any unique clash, the id's included (a duplicate transactionId is the one callers meet).
    if (this.rows.has(given.id) || this.byTransaction(given.environmentId, given.transactionId)) return false;
    this.rows.set(given.id, given);
    return true;
  }

  async findById(id: string): Promise<TriggerRecord | null> {
    const record = this.rows.get(id);
    return record ? copy(record) : null;
  }

  async findByTransactionId(scope: EnvironmentScope, transactionId: string): Promise<TriggerRecord | null> {
    const record = this.byTransaction(scope.environmentId, transactionId);
    return record && record.organizationId === scope.organizationId ? copy(record) : null;
  }

  async markStatus(id: string, from: TriggerStatus[], to: TriggerStatus, at?: Date): Promise<boolean> {
    const record = this.rows.get(id);
    if (!record || !from.includes(record.status)) return false;
    record.status = to;
    record.updatedAt = at ? new Date(at) : this.clock.now();
    return true;
  }

  async findStaleAccepted(olderThan: Date, limit: number): Promise<TriggerRecord[]> {
    return [...this.rows.values()]
      .filter((t) => t.status === 'accepted' && t.createdAt.getTime() < olderThan.getTime())
      .sort(
        orderBy(
          (t) => t.createdAt,
          (t) => t.id,
        ),
      )
      .slice(0, Math.max(limit, 0))
      .map(copy);
  }

  async cancel(scope: EnvironmentScope, transactionId: string, at?: Date): Promise<boolean> {
    const record = this.byTransaction(scope.environmentId, transactionId);
    if (!record || record.organizationId !== scope.organizationId || !CANCELABLE.includes(record.status)) return false;
    record.status = 'canceled';
    record.updatedAt = at ? new Date(at) : this.clock.now();
    return true;
  }

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const doomed = oldestBefore(this.rows.values(), before, limit, (t) => FINISHED.includes(t.status));
    for (const record of doomed) this.rows.delete(record.id);
    return doomed.length;
  }

  private byTransaction(environmentId: string, transactionId: string): TriggerRecord | undefined {
    return [...this.rows.values()].find((t) => t.environmentId === environmentId && t.transactionId === transactionId);
  }
}
