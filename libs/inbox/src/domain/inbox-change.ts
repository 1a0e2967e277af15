import { MessageCta } from '@app/delivery';

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
