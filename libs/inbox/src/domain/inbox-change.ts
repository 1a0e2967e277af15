import { Message, MessageCta, messageEventObject } from '@app/delivery';
import { OutboundEvent, OutboundEventType } from '@app/kernel';

/** What one Inbox action writes on a message (a field left out is not touched). */
export interface InboxChange {
  read?: boolean;
  seen?: boolean;
  archived?: boolean;
  /** A date snoozes, null wakes. */
  snoozedUntil?: Date | null;
  /** The whole CTA after an action was completed or reverted. */
  cta?: MessageCta;
  at: Date;
}

export type InboxAction = 'read' | 'unread' | 'archive' | 'unarchive' | 'snooze' | 'unsnooze' | 'complete' | 'revert';
export type InboxActionType = 'primary' | 'secondary';

/** The change an action makes, as Novu's Inbox: reading also sees, archiving also reads. */
export function changeFor(action: Exclude<InboxAction, 'complete' | 'revert'>, at: Date, snoozeUntil?: Date): InboxChange {
  switch (action) {
    case 'read':
      return { read: true, seen: true, at };
    case 'unread':
      return { read: false, at };
    case 'archive':
      return { archived: true, read: true, seen: true, at };
    case 'unarchive':
      return { archived: false, at };
    case 'snooze':
      return { snoozedUntil: snoozeUntil!, at };
    case 'unsnooze':
      return { snoozedUntil: null, at };
  }
}

/**
 * `cta.action` after completing (`done`, result type and payload: what the server-side v1 route may
 * send, `{}` from the Inbox) or reverting (`pending`, no result) a button.
 */
export function ctaAfter(
  cta: MessageCta | undefined,
  action: 'complete' | 'revert',
  actionType: InboxActionType,
  payload: Record<string, unknown> = {},
): MessageCta {
  const base: MessageCta = cta ?? { type: 'redirect' };
  const { result: _result, ...rest } = base.action ?? {};
  return action === 'complete'
    ? { ...base, action: { ...rest, status: 'done', result: { type: actionType, payload } } }
    : { ...base, action: { ...rest, status: 'pending' } };
}

/** The part of a message the subscriber's marks change and outbound events report. */
export type InboxState = Pick<Message, 'read' | 'seen' | 'archived' | 'snoozedUntil'>;

/**
 * The outbound events of one message's change, from its state before and after: one per field
 * that changed (reading an unseen message is read and seen; archiving an unread one is archived,
 * read and seen), none when it already was so. There is no `message.unseen` type.
 */
export function inboxEvents(before: InboxState, after: InboxState): OutboundEventType[] {
  const events: OutboundEventType[] = [];
  if (before.read !== after.read) events.push(after.read ? 'message.read' : 'message.unread');
  if (!before.seen && after.seen) events.push('message.seen');
  if (before.archived !== after.archived) events.push(after.archived ? 'message.archived' : 'message.unarchived');
  const until = (state: InboxState) => state.snoozedUntil?.getTime();
  if (until(before) !== until(after)) events.push(after.snoozedUntil ? 'message.snoozed' : 'message.unsnoozed');
  return events;
}

/**
 * The outbound events of messages a subscriber (`subscriberId`: their own id) changed, keyed by the
 * message and the time of the change: a repeated mark changes nothing and publishes nothing, while
 * read, unread and read again are three events. Objects are built only for endpoints that take them.
 */
export function inboxChangeEvents(changed: readonly { message: Message; before: InboxState }[], subscriberId: string): OutboundEvent[] {
  return changed.flatMap(({ message, before }) =>
    inboxEvents(before, message).map((type) => ({
      type,
      key: `${message.id}:${message.updatedAt.toISOString()}`,
      object: () => messageEventObject(message, subscriberId),
      occurredAt: message.updatedAt,
    })),
  );
}

/** message.deleted of each message a subscriber deleted (a message is deleted once: keyed by its id). */
export function inboxDeleteEvents(deleted: readonly Message[], subscriberId: string): OutboundEvent[] {
  return deleted.map((message) => ({ type: 'message.deleted', key: message.id, object: () => messageEventObject(message, subscriberId) }));
}
