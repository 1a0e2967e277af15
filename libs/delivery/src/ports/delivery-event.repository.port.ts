import { DeliveryEventRecord } from '../domain/delivery-event';

/** Vendor events already applied, unique per (integration, event key). */
export interface DeliveryEventRepository {
  /** Inserts unless the integration already has an event with this key; true when this call created it. */
  insertIfAbsent(record: DeliveryEventRecord): Promise<boolean>;
  exists(integrationId: string, eventKey: string): Promise<boolean>;
  /** The events recorded for a message, oldest first (by occurredAt). */
  listByMessage(messageId: string): Promise<DeliveryEventRecord[]>;
  /** Retention (any environment): deletes up to `limit` records created before `before`; returns how many. */
  deleteOlderThan(before: Date, limit: number): Promise<number>;
}
export const DELIVERY_EVENT_REPOSITORY = Symbol('DeliveryEventRepository');
