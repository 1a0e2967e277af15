import { EnvironmentScope } from '@app/kernel';
import { Message } from '@app/delivery';
import { InboxChange, InboxState } from '../domain/inbox-change';
import { InboxFilter } from '../domain/inbox-filter';
import { InboxItem } from '../domain/inbox-notification';

export interface BadgeCounts {
  /** By severity (high, medium, low, none); a severity without any is absent. */
  unread: Record<string, number>;
  unseen: number;
}

/** A message a change reached: as it is after the change, with its inbox state before it. */
export interface InboxChanged {
  message: Message;
  before: InboxState;
}

export interface InboxPageRequest {
  /** 1 to 100. */
  limit: number;
  /** Id of the last notification of the previous page (newest first); an unknown id gives an empty page. */
  after?: string;
  offset?: number;
}

/**
 * One subscriber's in-app messages (the Inbox feed), newest first (createdAt, then id). Every
 * method is scoped to the environment and the subscriber (internal id): nothing reaches another's
 * feed. Each change is one conditional statement.
 */
export interface InboxRepository {
  list(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter, page: InboxPageRequest): Promise<{ items: InboxItem[]; hasMore: boolean }>;
  count(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter): Promise<number>;
  find(scope: EnvironmentScope, subscriberId: string, id: string): Promise<InboxItem | null>;
  /** In-app messages of the environment by id, whoever their subscriber (announcing a delivered batch). */
  findMany(scope: EnvironmentScope, ids: string[]): Promise<InboxItem[]>;
  /**
   * What the bell shows, per subscriber (internal ids), in one read: unread per severity and unseen,
   * of the notifications neither archived nor snoozed. A subscriber without any is absent.
   */
  badgeCounts(scope: EnvironmentScope, subscriberIds: string[]): Promise<Map<string, BadgeCounts>>;
  /**
   * The message after the change, and its state before it (read in the same atomic write, so two
   * concurrent marks never both find it unread); null when the subscriber has no such in-app message.
   */
  change(scope: EnvironmentScope, subscriberId: string, id: string, change: InboxChange): Promise<(InboxItem & Pick<InboxChanged, 'before'>) | null>;
  /** Applies the change to every matching message; returns each one after it, with its state before (per message, atomically). */
  changeMany(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter, change: InboxChange): Promise<InboxChanged[]>;
  /** The message deleted; null when there was none (or another call deleted it). */
  delete(scope: EnvironmentScope, subscriberId: string, id: string): Promise<Message | null>;
  /** The messages this call deleted. */
  deleteMany(scope: EnvironmentScope, subscriberId: string, filter: InboxFilter): Promise<Message[]>;
  /**
   * Any environment: wakes up to `limit` messages whose snooze ended at or before `now` (clears
   * snoozedUntil) and returns them; each is returned to one caller only, even across processes.
   */
  wakeSnoozed(now: Date, limit: number): Promise<Message[]>;
  /** Records the subscriber (internal id) online or offline (isOnline, lastOnlineAt). */
  setPresence(scope: EnvironmentScope, subscriberId: string, online: boolean, at: Date): Promise<void>;
}
export const INBOX_REPOSITORY = Symbol('InboxRepository');
