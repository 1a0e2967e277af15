import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '@app/kernel';
import { INBOX_REPOSITORY, InboxRepository } from '../../ports/inbox.repository.port';
import { AnnounceInboxChanges } from '../announce-inbox-changes/announce-inbox-changes.use-case';

const BATCH = 500;

/**
 * Snoozed notifications whose time came back into the feed, each announced once as a new
 * notification (the store hands each woken message to one caller, so several workers may sweep).
 */
@Injectable()
export class WakeSnoozedNotifications {
  constructor(
    @Inject(INBOX_REPOSITORY) private readonly inbox: InboxRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly announce: AnnounceInboxChanges,
  ) {}

  async execute(): Promise<number> {
    let total = 0;
    for (;;) {
      const woken = await this.inbox.wakeSnoozed(this.clock.now(), BATCH);
      total += woken.length;
      if (woken.length) await this.announce.delivered(woken);
      if (woken.length < BATCH) return total;
    }
  }
}
