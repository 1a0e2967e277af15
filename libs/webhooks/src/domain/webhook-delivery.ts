import { OutboundEventType } from '@app/kernel';

/** `pending`: attempts left; `delivered`: a 2xx came back; `failed`: every attempt used; `dropped`: the endpoint was disabled or deleted first. */
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dropped';

/**
 * One event for one endpoint (the outbox row): written when the event is published, so a crash
 * after that loses nothing. Its id is the `webhook-id` every attempt carries.
 */
export interface WebhookDelivery {
  id: string;
  organizationId: string;
  environmentId: string;
  endpointId: string;
  eventType: OutboundEventType | 'reply.received' | 'endpoint.test';
  /** The exact JSON body sent (signed as is). */
  body: string;
  /** Where it goes when not the endpoint's URL (a reply callback's URL). */
  url?: string;
  status: WebhookDeliveryStatus;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due (pending only). */
  nextAttemptAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** One line of an endpoint's attempts log. */
export interface WebhookAttempt {
  id: string;
  organizationId: string;
  environmentId: string;
  endpointId: string;
  deliveryId: string;
  eventType: string;
  /** 1-based. */
  attempt: number;
  /** The HTTP status the endpoint answered; absent when no answer came (network error, refused target). */
  statusCode?: number;
  latencyMs?: number;
  success: boolean;
  error?: string;
  /** A 2xx excerpt or an error body excerpt. */
  responseExcerpt?: string;
  createdAt: Date;
}

/** The default retry delays after the first attempt: +5 s, +30 s, +2 min, +10 min, +30 min, +2 h, +5 h, +10 h. */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000];
