import { EnvironmentScope } from '@app/kernel';

/** Who an Inbox subscriber token speaks for: one subscriber of one environment. */
export interface SubscriberSession extends EnvironmentScope {
  /** Internal id of the subscriber (messages point at it). */
  subscriberInternalId: string;
  /** The subscriberId the application knows. */
  subscriberId: string;
}

/** The socket.io room of one subscriber's sockets (every API process joins its sockets to it). */
export const subscriberRoom = (session: Pick<SubscriberSession, 'environmentId' | 'subscriberInternalId'>): string =>
  `inbox:${session.environmentId}:${session.subscriberInternalId}`;
