import jsonLogic from 'json-logic-js';
/** A named group of subscribers, known by the caller's own `key`, unique per environment. */
export interface Topic {
  id: string;
  organizationId: string;
  environmentId: string;
  key: string;
  name?: string;
  createdAt: Date;
  updatedAt: Date;
}

/** One subscriber's membership of one topic. */
export interface TopicSubscription {
  id: string;
  organizationId: string;
  environmentId: string;
  topicId: string;
  topicKey: string;
  /** The subscriber's internal id (`_id`). */
  subscriberInternalId: string;
  /** The caller's own subscriberId. */
  subscriberId: string;
  /** Novu's name of the subscription. */
  name?: string;
  /** The subscription's own per-workflow choices (Novu's subscription preferences); absent when none were set. */
  preferences?: TopicSubscriptionPreference[];
  createdAt: Date;
  updatedAt: Date;
}

/** One workflow's choice on a subscription: on or off, or a JSON Logic `condition` on the payload. */
export interface TopicSubscriptionPreference {
  /** The workflow's internal id. */
  workflowId: string;
  enabled: boolean;
  condition?: Record<string, unknown>;
}

/**
 * Whether a subscription lets a trigger of the workflow its preference is for reach the subscriber
 * (Novu's rule): no preference, yes; with a `condition`, JSON Logic on `{payload}` that must give
 * exactly true (anything else, or a condition that throws, is no); otherwise `enabled`.
 */
export function subscriptionAllows(preference: TopicSubscriptionPreference | undefined, payload: Record<string, unknown>): boolean {
  if (!preference) return true;
  if (preference.condition !== undefined && preference.condition !== null) {
    try {
      return jsonLogic.apply(preference.condition, { payload }) === true;
    } catch {
      return false;
    }
  }
  return preference.enabled !== false;
}

/** The subscriberId a default identifier (`tk_<key>:si_<subscriberId>`) names within its topic; null when it names none. */
export function subscriberIdOfIdentifier(topicKey: string, identifier: string): string | null {
  const prefix = `tk_${topicKey}:si_`;
  return identifier.startsWith(prefix) && identifier.length > prefix.length ? identifier.slice(prefix.length) : null;
}

/** Topic keys travel in URL paths and trigger recipients, so they stay within a safe alphabet. */
export const TOPIC_KEY_PATTERN = /^[a-zA-Z0-9_:.-]+$/;

export const TOPIC_ORDER_FIELDS = ['_id', 'updatedAt', 'createdAt', 'key'] as const;
export type TopicOrderField = (typeof TOPIC_ORDER_FIELDS)[number];

export interface TopicSearchFilter {
  /** Case-insensitive substring of the key. */
  key?: string;
  /** Case-insensitive substring of the name. */
  name?: string;
}

/** Novu's identifier of a subscription, derived from its two keys. */
export function subscriptionIdentifier(topicKey: string, subscriberId: string): string {
  return `tk_${topicKey}:si_${subscriberId}`;
}
