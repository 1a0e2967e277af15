/** Novu's notification severities; a notification without one is `none`. */
export const SEVERITIES = ['high', 'medium', 'low', 'none'] as const;

/**
 * Which of a subscriber's in-app notifications a list, a count or a bulk change covers, as Novu's
 * Inbox filters them. Absent fields do not filter, except `snoozed`: a snoozed notification is out
 * of the feed until it wakes, unless `snoozed: true` asks for exactly those.
 */
export interface InboxFilter {
  /** Any of these tags (the workflow's). */
  tags?: string[];
  read?: boolean;
  seen?: boolean;
  archived?: boolean;
  snoozed?: boolean;
  /** Every key equals (the notification's data: its trigger payload). */
  data?: Record<string, unknown>;
  /** Any of these severities. */
  severity?: string[];
  /** Created at or after this time. */
  createdGte?: Date;
  /** Created at or before this time. */
  createdLte?: Date;
  /** Only these notifications (mark seen by ids). */
  ids?: string[];
  /** Only notifications sent within exactly these contexts (`type:id` keys, in any order), as Novu filters them. */
  contextKeys?: string[];
}

/** A context filter's keys as notifications record them: once each, sorted. */
export const sortedContextKeys = (keys: readonly string[]): string[] => [...new Set(keys)].sort();

/** The notification's severity as the Inbox sees it. */
export const severityOf = (severity: string | undefined): string => severity || 'none';

/** What the bell counts and the session reports: unread, not archived, not snoozed. */
export const UNREAD_FILTER: InboxFilter = { read: false, archived: false, snoozed: false };
/** What `unseen_count_changed` reports. */
export const UNSEEN_FILTER: InboxFilter = { seen: false, archived: false, snoozed: false };
