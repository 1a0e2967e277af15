import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '@app/kernel';
import { DELIVERY_EVENT_REPOSITORY, DeliveryEventRepository } from '../../ports/delivery-event.repository.port';
import { EXECUTION_DETAIL_REPOSITORY, ExecutionDetailRepository } from '../../ports/execution-detail.repository.port';
import { JOB_REPOSITORY, JobRepository } from '../../ports/job.repository.port';
import { MESSAGE_REPOSITORY, MessageRepository } from '../../ports/message.repository.port';
import { NOTIFICATION_REPOSITORY, NotificationRepository } from '../../ports/notification.repository.port';
import { THROTTLE_WINDOW_REPOSITORY, ThrottleWindowRepository } from '../../ports/throttle-window.repository.port';
import { TRIGGER_REPOSITORY, TriggerRepository } from '../../ports/trigger.repository.port';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Rows one delete statement removes at most: short statements, so deliveries never wait long on one. */
export const PURGE_BATCH_SIZE = 1000;

/** How many records of each kind a purge deleted. */
export interface PurgeCounts {
  executionDetails: number;
  messages: number;
  jobs: number;
  notifications: number;
  triggers: number;
  /** Vendor delivery events applied (their records; the details they wrote go with the details). */
  deliveryEvents: number;
  /** Throttle windows that ended before the cutoff. */
  throttleWindows: number;
}

/**
 * Retention: deletes delivery records created more than `retentionDays` days ago, in batches until
 * none is left. Leaves go first (details, messages, jobs, then notifications and triggers): a purge
 * cut short leaves a notification with fewer rows, not rows without their notification. Everything
 * of a notification with an unfinished job stays, and so do triggers not fanned out yet (each
 * repository statement checks that itself). Throttle windows go once they ended before the cutoff. Deleting is idempotent, so workers may purge at once.
 */
@Injectable()
export class PurgeExpiredRecords {
  constructor(
    @Inject(EXECUTION_DETAIL_REPOSITORY) private readonly details: ExecutionDetailRepository,
    @Inject(MESSAGE_REPOSITORY) private readonly messages: MessageRepository,
    @Inject(JOB_REPOSITORY) private readonly jobs: JobRepository,
    @Inject(NOTIFICATION_REPOSITORY) private readonly notifications: NotificationRepository,
    @Inject(TRIGGER_REPOSITORY) private readonly triggers: TriggerRepository,
    @Inject(DELIVERY_EVENT_REPOSITORY) private readonly deliveryEvents: DeliveryEventRepository,
    @Inject(THROTTLE_WINDOW_REPOSITORY) private readonly throttleWindows: ThrottleWindowRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** `retentionDays` 0 keeps everything. */
  async execute(retentionDays: number, batchSize = PURGE_BATCH_SIZE): Promise<PurgeCounts> {
    const counts: PurgeCounts = { executionDetails: 0, messages: 0, jobs: 0, notifications: 0, triggers: 0, deliveryEvents: 0, throttleWindows: 0 };
    if (retentionDays <= 0) return counts;
    const before = new Date(this.clock.now().getTime() - retentionDays * DAY_MS);
    const purge = async (deleteOlderThan: (before: Date, limit: number) => Promise<number>) => {
      let total = 0;
      for (;;) {
        const deleted = await deleteOlderThan(before, batchSize);
        total += deleted;
        // a short batch: nothing older is left (or another worker holds the rest and deletes it)
        if (deleted < batchSize) return total;
      }
    };
    counts.executionDetails = await purge((b, n) => this.details.deleteOlderThan(b, n));
    counts.messages = await purge((b, n) => this.messages.deleteOlderThan(b, n));
    counts.jobs = await purge((b, n) => this.jobs.deleteOlderThan(b, n));
    counts.notifications = await purge((b, n) => this.notifications.deleteOlderThan(b, n));
    counts.triggers = await purge((b, n) => this.triggers.deleteOlderThan(b, n));
    counts.deliveryEvents = await purge((b, n) => this.deliveryEvents.deleteOlderThan(b, n));
    counts.throttleWindows = await purge((b, n) => this.throttleWindows.deleteOlderThan(b, n));
    return counts;
  }
}
