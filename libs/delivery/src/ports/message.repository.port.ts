import { Channel, EnvironmentScope, Page } from '@app/kernel';
import { DeliveryEventType } from '../domain/delivery-event';
import { Message, MessageStatus } from '../domain/message';

export interface MessageDeliveryUpdate {
  status: MessageStatus;
  errorId?: string;
  errorText?: string;
  /** The provider's id for the sent message. */
  identifier?: string;
  /** Appended to the message's deliveredAt list. */
  deliveredAt?: Date;
  updatedAt?: Date;
}

export interface MessageListQuery {
  channel?: Channel | string;
  /** Internal id of the subscriber. */
  subscriberId?: string;
  /** Any of these (an empty list matches nothing). */
  transactionIds?: string[];
  /** 0-based. */
  page: number;
  /** At most 1000 (the API refuses more). */
  limit: number;
}

export interface MessageRepository {
  findById(scope: EnvironmentScope, id: string): Promise<Message | null>;
  /** The message a provider knows by one of these ids (its `identifier`), in the environment; the newest when several match. */
  findByProviderIdentifier(scope: EnvironmentScope, providerId: string, identifiers: string[]): Promise<Message | null>;
  /**
   * Sets the latest vendor-reported delivery state unless the message already holds a later one
   * (events arrive out of order); false when there is no such message or its state is later.
   */
  recordDeliveryState(id: string, change: { state: DeliveryEventType; at: Date }): Promise<boolean>;
  /** The messages of one job (several for chat/push fan-out), oldest first. */
  findByJobId(jobId: string): Promise<Message[]>;
  /** Newest first (createdAt desc), with the count of all matches. */
  list(scope: EnvironmentScope, query: MessageListQuery): Promise<Page<Message>>;
  /** Deletes the messages of a transaction (optionally one channel); returns those this call deleted. */
  deleteByTransaction(scope: EnvironmentScope, transactionId: string, channel?: Channel | string): Promise<Message[]>;
  /** Deletes one message of the environment; returns it, or null when there was none (or another call deleted it). */
  deleteById(scope: EnvironmentScope, id: string): Promise<Message | null>;
  /**
   * Retention (any environment): deletes up to `limit` messages created before `before`, oldest
   * first, in one statement; returns how many.
   * Never one that belongs to a notification with an unfinished job (pending, queued, delayed,
   * running): that condition only ever turns false to true (a finished job never changes, and a
   * notification gets no job after it is written), so an adapter may select then delete.
   */
  deleteOlderThan(before: Date, limit: number): Promise<number>;
}
export const MESSAGE_REPOSITORY = Symbol('MessageRepository');
