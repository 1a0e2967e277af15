import { Message, MessageCta, MessageRedirect } from '@app/delivery';

/** The workflow fields an Inbox notification carries. */
export interface InboxWorkflowInfo {
  id: string;
  identifier: string;
  name: string;
  critical: boolean;
  tags: string[];
  severity: string;
}

/** The subscriber fields an Inbox notification carries in `to`. */
export interface InboxSubscriberInfo {
  id: string;
  subscriberId: string;
  firstName?: string;
  lastName?: string;
  avatar?: string;
  locale?: string;
  timezone?: string;
  email?: string;
  phone?: string;
  data?: Record<string, unknown>;
}

/** One in-app message of the feed with what the Inbox shows beside it. */
export interface InboxItem {
  message: Message;
  severity: string;
}

/** Where a click leads, and (a v2 workflow's step) how the link opens. */
export interface InboxRedirectView {
  url: string;
  target?: string;
}

export interface InboxActionView {
  label: string;
  isCompleted: boolean;
  redirect?: InboxRedirectView;
}

/** Novu's Inbox notification (the REST shape of /v1/inbox/notifications). */
export interface InboxNotificationView {
  id: string;
  transactionId: string;
  subject?: string;
  body: string;
  to: InboxSubscriberInfo;
  isRead: boolean;
  isSeen: boolean;
  isArchived: boolean;
  isSnoozed: boolean;
  snoozedUntil?: string;
  deliveredAt?: string[];
  createdAt: string;
  readAt?: string;
  firstSeenAt?: string;
  archivedAt?: string;
  avatar?: string;
  primaryAction?: InboxActionView;
  secondaryAction?: InboxActionView;
  channelType: 'in_app';
  tags: string[];
  data: Record<string, unknown>;
  redirect?: InboxRedirectView;
  workflow: InboxWorkflowInfo;
  severity: string;
}

const iso = (date: Date | undefined): string | undefined => (date ? new Date(date).toISOString() : undefined);

function bodyOf(message: Message): string {
  return typeof message.content === 'string' ? message.content : message.content.map((block) => String(block.content ?? '')).join('\n');
}

function redirectOf(link: MessageRedirect | undefined): InboxRedirectView | undefined {
  return link?.url ? { url: link.url, ...(link.target ? { target: link.target } : {}) } : undefined;
}

function actionOf(cta: MessageCta | undefined, type: 'primary' | 'secondary'): InboxActionView | undefined {
  const button = cta?.action?.buttons?.find((candidate) => candidate.type === type);
  if (!button) return undefined;
  const redirect = redirectOf(button);
  return {
    label: button.content,
    isCompleted: cta?.action?.status === 'done' && cta.action.result?.type === type,
    ...(redirect ? { redirect } : {}),
  };
}

/** A v2 step's data when it has some (Novu v2), else the trigger payload (v1). */
function dataOf(message: Message): Record<string, unknown> {
  return message.data ?? message.payload ?? {};
}

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

export function toInboxNotification(item: InboxItem, workflow: InboxWorkflowInfo, subscriber: InboxSubscriberInfo): InboxNotificationView {
  const { message } = item;
  return definedOnly({
    id: message.id,
    transactionId: message.transactionId,
    subject: message.subject,
    body: bodyOf(message),
    to: subscriber,
    isRead: message.read,
    isSeen: message.seen,
    isArchived: message.archived,
    isSnoozed: Boolean(message.snoozedUntil),
    snoozedUntil: iso(message.snoozedUntil),
    deliveredAt: message.deliveredAt.map((date) => new Date(date).toISOString()),
    createdAt: new Date(message.createdAt).toISOString(),
    readAt: iso(message.lastReadDate),
    firstSeenAt: iso(message.firstSeenDate ?? message.lastSeenDate),
    archivedAt: iso(message.archivedAt),
    avatar: message.avatar,
    primaryAction: actionOf(message.cta, 'primary'),
    secondaryAction: actionOf(message.cta, 'secondary'),
    channelType: 'in_app' as const,
    tags: message.tags ?? [],
    data: dataOf(message),
    redirect: redirectOf(message.cta?.data),
    workflow,
    severity: item.severity,
  });
}

/**
 * The `message` of the `notification_received` socket event: Novu's stored message shape (`_id`,
 * `content`, `cta`, `subscriber`…), which the client maps to its notification itself. `cta` is
 * always an object, as the client reads `cta.action` unguarded.
 */
export function toSocketMessage(item: InboxItem, workflow: InboxWorkflowInfo, subscriber: InboxSubscriberInfo): Record<string, unknown> {
  const { message } = item;
  const { id, ...profile } = subscriber;
  return definedOnly({
    _id: message.id,
    transactionId: message.transactionId,
    content: bodyOf(message),
    read: message.read,
    seen: message.seen,
    archived: message.archived,
    snoozedUntil: iso(message.snoozedUntil),
    deliveredAt: message.deliveredAt.map((date) => new Date(date).toISOString()),
    createdAt: new Date(message.createdAt).toISOString(),
    lastReadDate: iso(message.lastReadDate),
    firstSeenDate: iso(message.firstSeenDate ?? message.lastSeenDate),
    archivedAt: iso(message.archivedAt),
    channel: 'in_app',
    subscriber: { _id: id, ...profile },
    subject: message.subject,
    avatar: message.avatar,
    cta: { type: 'redirect', data: {}, ...(message.cta ?? {}), action: { ...(message.cta?.action ?? {}) } },
    tags: message.tags ?? [],
    data: dataOf(message),
    workflow,
    severity: item.severity,
  });
}
