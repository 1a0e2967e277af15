import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '@app/kernel';
import { changeFor } from '../../domain/inbox-change';
import { InboxFilter } from '../../domain/inbox-filter';
import { SubscriberSession } from '../../domain/subscriber-session';
import { INBOX_REPOSITORY, InboxRepository } from '../../ports/inbox.repository.port';
import { AnnounceInboxChanges } from '../announce-inbox-changes/announce-inbox-changes.use-case';

/**
 * Novu's bulk Inbox actions (read all, archive all, archive the read ones, delete all, mark seen), and
 * the other marks of its server-side mark-all (unread, unseen).
 */
export type InboxBulkAction = 'read' | 'archive' | 'archive-read' | 'delete' | 'seen' | 'unread' | 'unseen';

@Injectable()
export class ChangeInboxNotifications {
  constructor(
    @Inject(INBOX_REPOSITORY) private readonly inbox: InboxRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly announce: AnnounceInboxChanges,
  ) {}

  /** `filter` narrows by tags, data or ids; returns how many notifications it covered. */
  async execute(session: SubscriberSession, action: InboxBulkAction, filter: Pick<InboxFilter, 'tags' | 'data' | 'ids'>): Promise<number> {
    const at = this.clock.now();
    const id = session.subscriberInternalId;
    let changed: number;
    switch (action) {
      case 'read':
        changed = await this.inbox.changeMany(session, id, { ...filter, read: false }, changeFor('read', at));
        break;
      case 'archive':
        changed = await this.inbox.changeMany(session, id, { ...filter, archived: false }, changeFor('archive', at));
        break;
      case 'archive-read':
        changed = await this.inbox.changeMany(session, id, { ...filter, archived: false, read: true }, changeFor('archive', at));
        break;
      case 'seen':
        changed = await this.inbox.changeMany(session, id, { ...filter, seen: false }, { seen: true, at });
        break;
      case 'unread':
        changed = await this.inbox.changeMany(session, id, { ...filter, read: true }, changeFor('unread', at));
        break;
      case 'unseen':
        changed = await this.inbox.changeMany(session, id, { ...filter, seen: true }, { seen: false, at });
        break;
      case 'delete':
        changed = await this.inbox.deleteMany(session, id, filter);
        break;
    }
    await this.announce.countsChanged(session, id);
    return changed;
  }
}
