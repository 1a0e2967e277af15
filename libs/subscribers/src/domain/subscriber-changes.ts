/** Profile fields a caller may set on a subscriber (everything but identity, channels and presence). */
export const SUBSCRIBER_PROFILE_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone'] as const;
export type SubscriberProfileField = (typeof SUBSCRIBER_PROFILE_FIELDS)[number];

/**
 * A partial change as Novu applies it: a field left `undefined` stays as it is, `null` clears it,
 * anything else replaces it (`data` is replaced as a whole, never merged).
 */
export type SubscriberChanges = Partial<Record<SubscriberProfileField, string | null>> & {
  data?: Record<string, unknown> | null;
};

/** Drops the `undefined` entries so only real changes travel to the store. */
export function definedChanges(changes: SubscriberChanges): SubscriberChanges {
  const result: SubscriberChanges = {};
  for (const field of [...SUBSCRIBER_PROFILE_FIELDS, 'data'] as const) {
    if (changes[field] !== undefined) (result as Record<string, unknown>)[field] = changes[field];
  }
  return result;
}

/** Orders a subscriber list may be sorted by (`_id` is creation order, as ids are time-prefixed). */
export const SUBSCRIBER_ORDER_FIELDS = ['_id', 'updatedAt', 'createdAt'] as const;
export type SubscriberOrderField = (typeof SUBSCRIBER_ORDER_FIELDS)[number];

export interface SubscriberSearchFilter {
  /** Case-insensitive substring. */
  email?: string;
  /** Case-insensitive substring. */
  phone?: string;
  /** Case-insensitive substring of the trimmed "firstName lastName". */
  name?: string;
  /** Exact match. */
  subscriberId?: string;
}

/** The fields a change sets to null. */
export function clearedBy(changes: SubscriberChanges): (SubscriberProfileField | 'data')[] {
  return ([...SUBSCRIBER_PROFILE_FIELDS, 'data'] as const).filter((field) => changes[field] === null);
}

/** The cleared fields after a change: the ones it sets lose the mark, the ones it nulls gain it (sorted). */
export function clearedAfter(before: readonly string[] | undefined, changes: SubscriberChanges): (SubscriberProfileField | 'data')[] {
  const set = ([...SUBSCRIBER_PROFILE_FIELDS, 'data'] as const).filter((field) => changes[field] !== undefined);
  const kept = (before ?? []).filter((field) => !(set as readonly string[]).includes(field));
  return [...new Set([...kept, ...clearedBy(changes)])].sort() as (SubscriberProfileField | 'data')[];
}
