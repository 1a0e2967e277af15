import { DeliveryEventRecord, DeliveryEventRepository } from '@app/delivery';
import { EnvironmentRecords, copy, oldestBefore, orderBy, stored } from './memory-records';

/** DeliveryEventRepository in memory: unique per (integration, event key). */
export class InMemoryDeliveryEventRepository implements DeliveryEventRepository, EnvironmentRecords {
  private readonly records = new Map<string, DeliveryEventRecord>();
  private readonly keys = new Set<string>();

  purgeEnvironment(environmentId: string): number {
    const doomed = [...this.records.values()].filter((r) => r.environmentId === environmentId);
    for (const r of doomed) {
      this.records.delete(r.id);
      this.keys.delete(JSON.stringify([r.integrationId, r.eventKey]));
    }
    return doomed.length;
  }

  async insertIfAbsent(record: DeliveryEventRecord): Promise<boolean> {
    const key = JSON.stringify([record.integrationId, record.eventKey]);
    if (this.keys.has(key) || this.records.has(record.id)) return false;
    this.keys.add(key);
    this.records.set(record.id, stored(record));
    return true;
  }

  async exists(integrationId: string, eventKey: string): Promise<boolean> {
    return this.keys.has(JSON.stringify([integrationId, eventKey]));
  }

  async listByMessage(messageId: string): Promise<DeliveryEventRecord[]> {
    return [...this.records.values()]
      .filter((r) => r.messageId === messageId)
      .sort(
        orderBy(
          (r) => r.occurredAt,
          (r) => r.id,
        ),
      )
      .map(copy);
  }

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const doomed = oldestBefore(this.records.values(), before, limit, () => true);
    for (const r of doomed) {
      this.records.delete(r.id);
      this.keys.delete(JSON.stringify([r.integrationId, r.eventKey]));
    }
    return doomed.length;
  }
}
