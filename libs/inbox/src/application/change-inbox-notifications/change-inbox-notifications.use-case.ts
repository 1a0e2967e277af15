import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, Clock, OUTBOUND_EVENTS, OutboundEvents, noOutboundEvents } from '@app/kernel';
import { InboxChange, changeFor, inboxChangeEvents, inboxDeleteEvents } from '../../domain/inbox-change';
import { InboxFilter } from '../../domain/inbox-filter';
import { SubscriberSession } from '../../domain/subscriber-session';
import { INBOX_REPOSITORY, InboxRepository } from '../../ports/inbox.repository.port';
import { AnnounceInboxChanges } from '../announce-inbox-changes/announce-inbox-changes.use-case';

/**
 * Novu's bulk Inbox actions (read all, archive all, archive the read ones, delete all, mark seen), and
 * the other marks of its server-side mark-all (unread, unseen).
 */
export type InboxBulkAction = 'read' | 'archive' | 'archive-read' | 'delete' | 'seen' | 'unread' | 'unseen';

/** Which notifications each bulk change covers (beyond the caller's filter), and the change. */
const BULK_CHANGES: Record<Exclude<InboxBulkAction, 'delete'>, (at: Date) => [Pick<InboxFilter, 'read' | 'seen' | 'archived'>, InboxChange]> = {
  read: (at) => [{ read: false }, changeFor('read', at)],
  archive: (at) => [{ archived: false }, changeFor('archive', at)],
  'archive-read': (at) => [{ archived: false, read: true }, changeFor('archive', at)],
  seen: (at) => [{ seen: false }, { seen: true, at }],
  unread: (at) => [{ read: true }, changeFor('unread', at)],
  unseen: (at) => [{ seen: true }, { seen: false, at }],
};

@Injectable()
export class ChangeInboxNotifications {
  constructor(
    @Inject(INBOX_REPOSITORY) private readonly inbox: InboxRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly announce: AnnounceInboxChanges,
    @Optional() @Inject(OUTBOUND_EVENTS) private readonly events: OutboundEvents = noOutboundEvents,
  ) {}

  /** `filter` narrows by tags, data, ids or contexts; returns how many notifications it covered. Each message changed is an outbound event. */
  async execute(session: SubscriberSession, action: InboxBulkAction, filter: Pick<InboxFilter, 'tags' | 'data' | 'ids' | 'contextKeys'>): Promise<number> {
    const id = session.subscriberInternalId;
    let covered: number;
    if (action === 'delete') {
      const deleted = await this.inbox.deleteMany(session, id, filter);
      await this.events.publish(session, inboxDeleteEvents(deleted, session.subscriberId));
      covered = deleted.length;
    } else {
      const [only, change] = BULK_CHANGES[action](this.clock.now());
      const changed = await this.inbox.changeMany(session, id, { ...filter, ...only }, change);
      await this.events.publish(session, inboxChangeEvents(changed, session.subscriberId));
      covered = changed.length;
    }
    await this.announce.countsChanged(session, id);
    return covered;
  }
}
