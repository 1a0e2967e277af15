import { Channel } from '@app/kernel';
import { DeliveryEventType } from './delivery-event';

/** Novu's MessageStatusEnum. */
export const MESSAGE_STATUSES = ['sent', 'error', 'warning'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Novu's error ids for a message that could not be addressed. */
export const MESSAGE_ERROR_IDS = {
  missingEmail: 'mail_unexpected_error',
  missingPhone: 'no_subscriber_phone',
  providerError: 'unexpected_provider_error',
  contentError: 'message_content_error',
} as const;

/** Where a click leads: a URL and, for a v2 workflow's step, how the link opens (an HTML link's `target`). */
export interface MessageRedirect {
  url?: string;
  target?: string;
}

/** A button as Novu keeps it on a message; a v2 step's button has its own link (`url`, `target`). */
export interface MessageCtaButton extends MessageRedirect {
  type: string;
  content: string;
  resultContent?: string;
}

export interface MessageCta {
  type: string;
  data?: MessageRedirect;
  action?: {
    status?: string;
    buttons?: MessageCtaButton[];
    result?: { payload?: Record<string, unknown>; type?: string };
  };
}

/** What one channel step delivered (or tried to) to one subscriber. */
export interface Message {
  id: string;
  organizationId: string;
  environmentId: string;
  notificationId: string;
  jobId: string;
  /** Internal id of the subscriber. */
  subscriberId: string;
  workflowId: string;
  templateIdentifier: string;
  stepId?: string;
  transactionId: string;
  channel: Channel;
  providerId?: string;
  status: MessageStatus;
  errorId?: string;
  errorText?: string;
  /** Rendered content: text/HTML, or email blocks. */
  content: string | Record<string, unknown>[];
  subject?: string;
  title?: string;
  cta?: MessageCta;
  avatar?: string;
  /** A v2 in-app step's `data` (its string values rendered): what the Inbox shows as the notification's data. */
  data?: Record<string, unknown>;
  actorSubscriberId?: string;
  /** Novu's in-app `actor`: whose avatar the message shows (`user`: the trigger's actor) or a system icon / URL. */
  actor?: MessageActor;
  read: boolean;
  seen: boolean;
  archived: boolean;
  lastSeenDate?: Date;
  lastReadDate?: Date;
  snoozedUntil?: Date;
  /** When the subscriber archived it (Inbox). */
  archivedAt?: Date;
  /** When the subscriber first saw it (Inbox). */
  firstSeenDate?: Date;
  deliveredAt: Date[];
  /** The provider's id for the sent message. */
  identifier?: string;
  /** Beyond Novu: the latest state the provider reported through its event webhook. */
  deliveryState?: DeliveryEventType;
  /** When the provider says that state happened. */
  deliveryStateAt?: Date;
  email?: string;
  phone?: string;
  deviceTokens?: string[];
  directWebhookUrl?: string;
  payload: Record<string, unknown>;
  overrides: Record<string, unknown>;
  tags?: string[];
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The message as outbound webhook events carry it (`data.object` of message.* events): Novu's
 * message wire names, without what may hold a credential (a direct webhook URL, the overrides).
 */
export function messageEventObject(message: Message, externalSubscriberId?: string): Record<string, unknown> {
  const optional = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
  return {
    _id: message.id,
    _environmentId: message.environmentId,
    _organizationId: message.organizationId,
    _notificationId: message.notificationId,
    _jobId: message.jobId,
    _subscriberId: message.subscriberId,
    _templateId: message.workflowId,
    ...optional({ _messageTemplateId: message.stepId, subscriberId: externalSubscriberId }),
    templateIdentifier: message.templateIdentifier,
    transactionId: message.transactionId,
    channel: message.channel,
    status: message.status,
    ...optional({
      providerId: message.providerId,
      identifier: message.identifier,
      subject: message.subject,
      title: message.title,
      email: message.email,
      phone: message.phone,
      deviceTokens: message.deviceTokens,
      errorId: message.errorId,
      errorText: message.errorText,
      lastSeenDate: message.lastSeenDate?.toISOString(),
      lastReadDate: message.lastReadDate?.toISOString(),
      snoozedUntil: message.snoozedUntil?.toISOString(),
    }),
    content: message.content,
    read: message.read,
    seen: message.seen,
    archived: message.archived,
    deliveredAt: message.deliveredAt.map((date) => date.toISOString()),
    payload: message.payload,
    ...optional({ tags: message.tags }),
    createdAt: message.createdAt.toISOString(),
    updatedAt: message.updatedAt.toISOString(),
  };
}

/**
 * The trigger payload as a message keeps it: without `attachments`, whose file bodies belong to the
 * email that carried them (Novu's messages have none either).
 */
export interface MessageActor {
  type: 'user' | 'system_icon' | 'system_custom';
  data: string | null;
}

export function messagePayload(payload: Record<string, unknown>): Record<string, unknown> {
  if (!('attachments' in payload)) return payload;
  const { attachments: _attachments, ...rest } = payload;
  return rest;
}

/** Vendor events that show an email was opened (a click implies it). */
export const EMAIL_OPENING_EVENTS: readonly DeliveryEventType[] = ['opened', 'clicked'];

/**
 * Whether what one step sent was seen / read, for previous-step filters: any of its messages
 * marked so (the Inbox, mark-as), or for an email one its provider reports opened (Novu counts an
 * email read and seen once opened). Undefined when the step sent no message.
 */
export function messagesReadState(
  messages: readonly Pick<Message, 'id' | 'seen' | 'read'>[],
  openedIds: ReadonlySet<string> = new Set(),
): { seen: boolean; read: boolean } | undefined {
  if (messages.length === 0) return undefined;
  return {
    seen: messages.some((message) => message.seen || openedIds.has(message.id)),
    read: messages.some((message) => message.read || openedIds.has(message.id)),
  };
}
