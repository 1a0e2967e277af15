import { EnvironmentScope, Page } from '@app/kernel';
import { Notification } from '../domain/notification';

export interface NotificationListQuery {
  transactionId?: string;
  /** Internal id of the subscriber. */
  subscriberId?: string;
  /** Internal ids: notifications of any of these subscribers. */
  subscriberIds?: string[];
  workflowIds?: string[];
  /** Notifications whose channels include any of these. */
  channels?: string[];
  /** 0-based. */
  page: number;
  limit: number;
}

export interface NotificationRepository {
  findById(scope: EnvironmentScope, id: string): Promise<Notification | null>;
  /** Newest first (createdAt desc), with the count of all matches. */
  list(scope: EnvironmentScope, query: NotificationListQuery): Promise<Page<Notification>>;
  /**
   * Retention (any environment): deletes up to `limit` notifications created before `before`,
   * oldest first, in one statement; returns how many.
   * Never a notification with an unfinished job (pending, queued, delayed,
   * running): that condition only ever turns false to true (a finished job never changes, and a
   * notification gets no job after it is written), so an adapter may select then delete.
   */
  deleteOlderThan(before: Date, limit: number): Promise<number>;
}
export const NOTIFICATION_REPOSITORY = Symbol('NotificationRepository');
