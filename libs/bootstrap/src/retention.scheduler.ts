import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { PurgeCounts, PurgeExpiredRecords } from '@app/delivery';
import { PurgeWebhookRecords } from '@app/webhooks';

/** The first purge waits this long after start (a process restarted in a loop does not purge in a loop)… */
export const RETENTION_FIRST_RUN_AFTER_MS = 60_000;
/** …then one every this often. */
export const RETENTION_EVERY_MS = 5 * 60_000;

/**
 * Deletes delivery records older than RETENTION_DAYS (never with 0), in each process that runs the
 * workers: the embedded process, or every worker process in production. Several at once are fine,
 * deleting is idempotent and each statement skips the rows another purger holds.
 */
@Injectable()
export class RetentionScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Retention');
  private timer?: NodeJS.Timeout;
  private running?: Promise<PurgeCounts | undefined>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly purge: PurgeExpiredRecords,
    @Optional() private readonly purgeWebhooks?: PurgeWebhookRecords,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.retentionDays === 0) return;
    const tick = () => void this.run();
    this.timer = setTimeout(() => {
      tick();
      this.timer = setInterval(tick, RETENTION_EVERY_MS);
      this.timer.unref();
    }, RETENTION_FIRST_RUN_AFTER_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearTimeout(this.timer);
    clearInterval(this.timer);
  }

  /** One purge; while one is under way, that one's result (runs never overlap). Undefined when it failed (logged). */
  run(): Promise<PurgeCounts | undefined> {
    this.running ??= this.purgeOnce().finally(() => (this.running = undefined));
    return this.running;
  }

  private async purgeOnce(): Promise<PurgeCounts | undefined> {
    const days = this.config.retentionDays;
    try {
      const counts = await this.purge.execute(days);
      // The outbound webhooks' outbox and attempts log age the same way.
      const webhookRows = (await this.purgeWebhooks?.execute(days)) ?? 0;
      if (webhookRows > 0)
        this.logger.log({ deleted: { webhookRows }, retentionDays: days }, `Deleted ${webhookRows} outbound webhook records older than ${days} days`);
      if (Object.values(counts).some((count) => count > 0)) {
        this.logger.log(
          { deleted: counts, retentionDays: days },
          `Deleted delivery records older than ${days} days: ${counts.executionDetails} execution details, ${counts.messages} messages, ` +
            `${counts.jobs} jobs, ${counts.notifications} notifications, ${counts.triggers} triggers, ${counts.deliveryEvents} vendor delivery events, ` +
            `${counts.throttleWindows} throttle windows`,
        );
      }
      return counts;
    } catch (error) {
      this.logger.error(`Retention purge failed (it runs again in ${RETENTION_EVERY_MS / 60_000} minutes): ${(error as Error)?.message}`);
      return undefined;
    }
  }
}
