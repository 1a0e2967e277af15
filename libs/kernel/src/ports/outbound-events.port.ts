import type { EnvironmentScope } from '../domain/scope';

/**
 * Events the service tells the customer's own systems about (outbound webhooks), with Novu's names.
 * A use case that changes what an event describes publishes it through OutboundEvents once the
 * change is stored; the adapter (libs/webhooks) writes one outbox row per subscribed endpoint and
 * the worker delivers it, signed, at least once.
 */
export const OUTBOUND_EVENT_TYPES = [
  'message.sent',
  'message.failed',
  'message.delivered',
  'message.seen',
  'message.read',
  'message.unread',
  'message.archived',
  'message.unarchived',
  'message.snoozed',
  'message.unsnoozed',
  'message.deleted',
  'workflow.created',
  'workflow.updated',
  'workflow.deleted',
  'preference.updated',
] as const;
export type OutboundEventType = (typeof OUTBOUND_EVENT_TYPES)[number];

export function isOutboundEventType(value: unknown): value is OutboundEventType {
  return typeof value === 'string' && (OUTBOUND_EVENT_TYPES as readonly string[]).includes(value);
}

export interface OutboundEvent {
  type: OutboundEventType;
  /**
   * What makes this event the same event when it is published again (a step rerun after a crash
   * publishing `message.sent` once more): e.g. the message id for message.sent, the message id and
   * the time of the change for a mark (read, unread, read again are three events). Endpoints receive
   * one event per key and type, under a stable `webhook-id`. Leave it out for events that are
   * distinct each time (a fresh id is made).
   */
  key?: string;
  /**
   * The object as it is now (the message, workflow or preferences, as the API shows it), or a
   * function building it (or reading what it needs to): called only when an endpoint takes the
   * event, so a publisher on a hot path (a message.sent per delivery, a thousand messages marked
   * read) builds nothing for an environment without endpoints.
   */
  object: Record<string, unknown> | (() => Record<string, unknown> | Promise<Record<string, unknown>>);
  /** The object before the change, for updates. */
  previousObject?: Record<string, unknown>;
  /** Why it failed (message.failed). */
  error?: Record<string, unknown>;
  /** When it happened (default: now). */
  occurredAt?: Date;
}

export interface OutboundEvents {
  /** Stores each event for every endpoint of the environment that takes its type, and schedules its delivery. */
  publish(scope: EnvironmentScope, events: OutboundEvent | readonly OutboundEvent[]): Promise<void>;
}
export const OUTBOUND_EVENTS = Symbol('OutboundEvents');

/** Publishes nothing: for processes and unit tests without outbound webhooks. */
export const noOutboundEvents: OutboundEvents = { publish: async () => undefined };
