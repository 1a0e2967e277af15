import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, Clock, OUTBOUND_EVENTS, OutboundEvents, noOutboundEvents } from '@app/kernel';
import { InboxNotificationNotFoundError, InvalidSnoozeError, NoActionOfTypeError } from '../../domain/errors';
import { InboxAction, InboxActionType, InboxChange, changeFor, ctaAfter, inboxChangeEvents } from '../../domain/inbox-change';
import { InboxItem, InboxNotificationView } from '../../domain/inbox-notification';
import { SubscriberSession } from '../../domain/subscriber-session';
import { INBOX_REPOSITORY, InboxRepository } from '../../ports/inbox.repository.port';
import { AnnounceInboxChanges } from '../announce-inbox-changes/announce-inbox-changes.use-case';
import { MAX_SNOOZE_DURATION_HOURS } from '../start-inbox-session/start-inbox-session.use-case';
import { InboxViews } from '../inbox-views';

export interface ChangeInboxNotificationCommand {
  id: string;
  action: InboxAction;
  /** complete / revert: which button. */
  actionType?: InboxActionType;
  /** snooze: until when. */
  snoozeUntil?: Date;
  /** complete: the result's payload (Novu's server-side action route sends one). */
  payload?: Record<string, unknown>;
}

/** One notification: read, unread, archive, unarchive, snooze, unsnooze, complete or revert an action. */
@Injectable()
export class ChangeInboxNotification {
  constructor(
    @Inject(INBOX_REPOSITORY) private readonly inbox: InboxRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly views: InboxViews,
    private readonly announce: AnnounceInboxChanges,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  async execute(session: SubscriberSession, command: ChangeInboxNotificationCommand): Promise<InboxNotificationView> {
    const item = await this.applyChange(session, command);
    const [view] = await this.views.notifications(session, session.subscriberInternalId, [item]);
    return view;
  }

  /** The change alone, answered with the stored message (Novu's v1 action route shows the message, not the Inbox view). */
  async applyChange(session: SubscriberSession, command: ChangeInboxNotificationCommand): Promise<InboxItem> {
    const at = this.clock.now();
    const change = await this.changeOf(session, command, at);
    const changed = await this.inbox.change(session, session.subscriberInternalId, command.id, change);
    if (!changed) throw new InboxNotificationNotFoundError(command.id);
    await this.events.publish(session, inboxChangeEvents([changed], session.subscriberId));
    await this.announce.countsChanged(session, session.subscriberInternalId);
    const { before: _before, ...item } = changed;
    return item;
  }

  private async changeOf(session: SubscriberSession, command: ChangeInboxNotificationCommand, at: Date): Promise<InboxChange> {
    if (command.action === 'complete' || command.action === 'revert') {
      const actionType = command.actionType ?? 'primary';
      const item = await this.inbox.find(session, session.subscriberInternalId, command.id);
      if (!item) throw new InboxNotificationNotFoundError(command.id);
      if (!item.message.cta?.action?.buttons?.some((button) => button.type === actionType)) throw new NoActionOfTypeError(actionType);
      return { cta: ctaAfter(item.message.cta, command.action, actionType, command.payload), at };
    }
    if (command.action === 'snooze') {
      const until = command.snoozeUntil;
      if (!until || until.getTime() <= at.getTime()) throw new InvalidSnoozeError('Snooze time must be in the future');
      if (until.getTime() - at.getTime() > MAX_SNOOZE_DURATION_HOURS * 3_600_000) {
        throw new InvalidSnoozeError(`Snooze time cannot be more than ${MAX_SNOOZE_DURATION_HOURS} hours ahead`);
      }
      return changeFor('snooze', at, until);
    }
    return changeFor(command.action, at);
  }
}
