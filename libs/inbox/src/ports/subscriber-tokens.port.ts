import { SubscriberSession } from '../domain/subscriber-session';

/** Signed, expiring subscriber tokens. */
export interface SubscriberTokens {
  sign(session: SubscriberSession, now: Date): Promise<string>;
  /** Throws InvalidSubscriberTokenError for a forged, malformed or expired token. */
  verify(token: string, now: Date): Promise<SubscriberSession>;
}
export const SUBSCRIBER_TOKENS = Symbol('SubscriberTokens');
