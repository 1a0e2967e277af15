import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { JOB_QUEUE, JobQueue } from '@app/kernel';
import { DeliverWebhook, RecoverWebhookDeliveries, WEBHOOKS_QUEUE, WebhookJobData } from '@app/webhooks';
import { StoreOutage } from './store-outage';

const RECOVER_EVERY_MS = 10_000;

/** Outbound webhook attempts from the webhooks queue, and the sweep that re-queues outbox rows the queue lost. */
@Injectable()
export class WebhookProcessor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookProcessor.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deliver: DeliverWebhook,
    private readonly recover: RecoverWebhookDeliveries,
    private readonly outage: StoreOutage,
  ) {}

  onApplicationBootstrap(): void {
    // An attempt's failure is recorded and rescheduled by DeliverWebhook itself; what throws here is
    // the store or the queue, which the queue's own retry (and the sweep) covers.
    this.queue.process<WebhookJobData>(WEBHOOKS_QUEUE, { concurrency: Math.min(50, this.config.workerConcurrency) }, (job) =>
      this.outage.run(() => this.deliver.execute(job.data)),
    );
    this.timer = setInterval(() => {
      if (this.outage.ongoing) return;
      this.recover.execute(500, this.config.recoveryAfterMs).then(
        (count) => count && this.logger.warn(`Re-enqueued ${count} webhook delivery(ies) the queue had lost`),
        (error) => this.logger.error(`Webhook recovery failed: ${error.message}`),
      );
    }, RECOVER_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }
}
