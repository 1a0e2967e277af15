import { EnvironmentScope, PageRequest } from '@app/kernel';
import type { ListPage } from './webhook-endpoint.repository.port';
import { WebhookAttempt, WebhookDelivery, WebhookDeliveryStatus } from '../domain/webhook-delivery';

/** The outbox of outbound webhooks (one row per event and endpoint) and each endpoint's attempts log. */
export interface WebhookDeliveryRepository {
  /** Inserts the rows whose id is new; answers the ids inserted (a republished event inserts nothing). */
  insertMany(deliveries: WebhookDelivery[]): Promise<string[]>;
  findById(id: string): Promise<WebhookDelivery | null>;
  /**
   * Records the outcome of attempt `attempt` (compare-and-set on the attempts made: answers false
   * when another run recorded it first).
   */
  recordAttempt(id: string, attempt: number, outcome: { status: WebhookDeliveryStatus; nextAttemptAt?: Date }, now: Date): Promise<boolean>;
  /** Ends a pending delivery without another attempt (its endpoint was disabled or deleted). */
  drop(id: string, now: Date): Promise<void>;
  /** Pending deliveries whose next attempt was due before `before` (the queue may have lost them), oldest first. */
  findOverdue(before: Date, limit: number): Promise<WebhookDelivery[]>;
  appendAttempt(attempt: WebhookAttempt): Promise<void>;
  /** The endpoint's attempts log, newest first. */
  listAttempts(scope: EnvironmentScope, endpointId: string, page: PageRequest): Promise<ListPage<WebhookAttempt>>;
  /**
   * Retention: deletes up to `limit` ended deliveries (never a pending one) and up to `limit`
   * attempts-log entries created before `before`, oldest first; answers how many rows went.
   */
  deleteOlderThan(before: Date, limit: number): Promise<number>;
  /** Whether the endpoint answered any attempt with a 2xx at or after `since`. */
  succeededSince(endpointId: string, since: Date): Promise<boolean>;
}
export const WEBHOOK_DELIVERY_REPOSITORY = Symbol('WebhookDeliveryRepository');
