import { InlineSubscriber, ParsedRecipients, TenantRecipient, parseActor, parseRecipients, parseTenant } from './recipients';

/**
 * Where an accepted trigger is on its way to jobs:
 * `accepted` — persisted, the fan-out may not have reached the queue yet (the reconciler looks for these,
 *   so it keeps an eye on a trigger until its notifications exist);
 * `processed` — notifications and jobs exist;
 * `canceled` — canceled by request (a fan-out that sees it creates nothing more);
 * `failed` — its fan-out failed for a reason no retry fixes (data the store refuses): it ends there,
 *   and the reconciler leaves it alone.
 */
export const TRIGGER_STATUSES = ['accepted', 'processed', 'canceled', 'failed'] as const;
export type TriggerStatus = (typeof TRIGGER_STATUSES)[number];

/** A recipient as given in the trigger: a subscriberId, a subscriber object or a topic. */
export type TriggerRecipient = string | Record<string, unknown>;

/** The durable record of one accepted `POST /v1/events/trigger`. */
export interface TriggerRecord {
  id: string;
  organizationId: string;
  environmentId: string;
  /** Unique in the environment: a repeat is acknowledged and delivers nothing. */
  transactionId: string;
  workflowId: string;
  workflowIdentifier: string;
  /**
   * Parsed when the trigger was accepted (read them through recipientsOf). A record an earlier
   * version accepted holds them as given: `to` an array, `actor` and `tenant` as in the request.
   */
  to: ParsedRecipients | TriggerRecipient[];
  /** `POST /v1/events/trigger/broadcast`: every subscriber of the environment (`to` is empty); absent otherwise. */
  broadcast?: true;
  payload: Record<string, unknown>;
  overrides: Record<string, unknown>;
  actor?: InlineSubscriber | string | Record<string, unknown>;
  tenant?: TenantRecipient | string | Record<string, unknown>;
  /** The contexts the trigger named (`type:id`, sorted), created or updated when it was accepted. */
  contextKeys?: string[];
  status: TriggerStatus;
  /** The fan-out queue job that carries this trigger (triggers accepted together share one); its own id when absent. */
  fanOutJobId?: string;
  /**
   * Its notifications' and jobs' ids start with its acceptance second (timeOrderedDeterministicId).
   * Absent on a trigger accepted by an earlier version: its fan-out may have begun under the
   * hash-only ids (deterministicId), and a resumed fan-out must derive the ids it derived then.
   */
  timeOrderedIds?: true;
  createdAt: Date;
  updatedAt: Date;
}

/** Who a trigger goes to, and on whose behalf, as the fan-out reads them. */
export interface TriggerRecipients {
  to: ParsedRecipients;
  actor?: InlineSubscriber;
  tenant?: TenantRecipient;
}

/** The recipients as a trigger record keeps them: parsed at acceptance, or (an earlier version's record) parsed now. */
export function recipientsOf(record: Pick<TriggerRecord, 'to' | 'actor' | 'tenant'>): TriggerRecipients {
  if (!Array.isArray(record.to))
    return { to: record.to, actor: record.actor as InlineSubscriber | undefined, tenant: record.tenant as TenantRecipient | undefined };
  return { to: parseRecipients(record.to).recipients, actor: parseActor(record.actor).actor, tenant: parseTenant(record.tenant).tenant };
}
