import { EnvironmentScope, Page } from '@app/kernel';
import { Notification } from '../domain/notification';

export interface NotificationListQuery {
  transactionId?: string;
  /** Internal id of the subscriber. */
  subscriberId?: string;
  /** 0-based. */
  page: number;
  limit: number;
}

export interface NotificationRepository {
  /** Idempotent bulk insert (ids are deterministic): rows whose id exists are left alone. Returns how many were new. */
  insertMany(notifications: Notification[]): Promise<number>;
  findById(scope: EnvironmentScope, id: string): Promise<Notification | null>;
  /** Newest first (createdAt desc), with the count of all matches. */
  list(scope: EnvironmentScope, query: NotificationListQuery): Promise<Page<Notification>>;
  /** Records that this notification's digest merged into the master's notification; false when there is no such notification. */
  setDigestedNotification(id: string, masterNotificationId: string): Promise<boolean>;
}
export const NOTIFICATION_REPOSITORY = Symbol('NotificationRepository');
