import { OutboundEventType } from '@app/kernel';
import { ExecutionDetailStatus } from './execution-detail';

/** What a vendor told us happened to a message after we handed it over. */
export const DELIVERY_EVENT_TYPES = ['delivered', 'opened', 'clicked', 'bounced', 'dropped', 'spam_report', 'unsubscribed', 'failed', 'undelivered'] as const;
export type DeliveryEventType = (typeof DELIVERY_EVENT_TYPES)[number];

/** One vendor event, parsed from a verified webhook body (nothing here is trusted before the signature is). */
export interface VendorDeliveryEvent {
  /** Unique per vendor event (the vendor's event id, or a hash of what identifies it): a replay has the same key. */
  key: string;
  type: DeliveryEventType;
  /** The ids the vendor knows the message by (its own id as it answered the send, in any of its spellings). */
  vendorMessageIds: string[];
  /** Our message id, where the vendor echoes back what we sent with the message (SendGrid custom_args). */
  messageId?: string;
  /** The address the event is about (email or phone). */
  recipient?: string;
  occurredAt: Date;
  /** A bounce the vendor calls permanent (or an SMS number that cannot receive): the address is suppressed. */
  permanent?: boolean;
  /** The vendor's words (bounce reason, error code), short. */
  reason?: string;
  /** A small excerpt of the vendor event for the execution detail (never headers or keys). */
  raw: Record<string, unknown>;
}

const DETAILS: Record<DeliveryEventType, { status: ExecutionDetailStatus; text: string }> = {
  delivered: { status: 'Success', text: 'Provider reports the message delivered' },
  opened: { status: 'Success', text: 'Provider reports the message opened' },
  clicked: { status: 'Success', text: 'Provider reports a link in the message clicked' },
  bounced: { status: 'Failed', text: 'Provider reports the message bounced' },
  dropped: { status: 'Failed', text: 'Provider reports the message dropped' },
  spam_report: { status: 'Warning', text: 'Provider reports the message marked as spam' },
  unsubscribed: { status: 'Warning', text: 'Provider reports the recipient unsubscribed' },
  failed: { status: 'Failed', text: 'Provider reports the message failed' },
  undelivered: { status: 'Failed', text: 'Provider reports the message undelivered' },
};

/** The execution detail status and text of a delivery event. */
export function deliveryEventDetail(type: DeliveryEventType): { status: ExecutionDetailStatus; text: string } {
  return DETAILS[type];
}

/**
 * The outbound event a vendor event is, in Novu's types: delivered; opened or clicked (a click
 * implies an open) is seen; a bounce, drop or failure is failed, with the vendor's reason. A spam
 * report or unsubscribe has no type.
 */
export function outboundEventOf(event: VendorDeliveryEvent): { type: OutboundEventType; error?: Record<string, unknown> } | undefined {
  switch (event.type) {
    case 'delivered':
      return { type: 'message.delivered' };
    case 'opened':
    case 'clicked':
      return { type: 'message.seen' };
    case 'bounced':
    case 'dropped':
    case 'failed':
    case 'undelivered':
      return { type: 'message.failed', error: { message: event.reason ?? DETAILS[event.type].text, code: event.type } };
    case 'spam_report':
    case 'unsubscribed':
      return undefined;
  }
}

/** Whether this event puts its address on the suppression list (when suppression is on). */
export function suppressesAddress(event: VendorDeliveryEvent): SuppressionReason | undefined {
  if (event.type === 'spam_report') return 'spam_report';
  if ((event.type === 'bounced' || event.type === 'undelivered' || event.type === 'failed' || event.type === 'dropped') && event.permanent)
    return 'hard_bounce';
  return undefined;
}

export const SUPPRESSION_REASONS = ['hard_bounce', 'spam_report'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** An address later email/SMS sends of the environment skip. */
export interface Suppression {
  organizationId: string;
  environmentId: string;
  /** Lower-case email, or the phone number as the vendor reported it. */
  address: string;
  channel: 'email' | 'sms';
  reason: SuppressionReason;
  providerId: string;
  /** The message whose event caused it. */
  messageId: string;
  /** The vendor's words, short. */
  detail?: string;
  createdAt: Date;
}

/** The key a suppression is stored under: emails compare case-insensitively. */
export function suppressionAddress(address: string): string {
  return address.trim().toLowerCase();
}

/** One recorded vendor event (its key makes a replay a no-op). */
export interface DeliveryEventRecord {
  id: string;
  organizationId: string;
  environmentId: string;
  integrationId: string;
  /** VendorDeliveryEvent.key */
  eventKey: string;
  messageId: string;
  type: DeliveryEventType;
  occurredAt: Date;
  createdAt: Date;
}
