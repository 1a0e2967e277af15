import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '@app/kernel';
import { WEBHOOK_DELIVERY_REPOSITORY, WebhookDeliveryRepository } from '../../ports/webhook-delivery.repository.port';

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 1000;

/** Retention of the outbox and the attempts log: rows older than `retentionDays` days go (a pending delivery stays until it ends). */
@Injectable()
export class PurgeWebhookRecords {
  constructor(
    @Inject(WEBHOOK_DELIVERY_REPOSITORY) private readonly deliveries: WebhookDeliveryRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(retentionDays: number): Promise<number> {
    if (retentionDays <= 0) return 0;
    const before = new Date(this.clock.now().getTime() - retentionDays * DAY_MS);
    let total = 0;
    for (;;) {
      const deleted = await this.deliveries.deleteOlderThan(before, BATCH);
      total += deleted;
      if (deleted === 0) return total;
    }
  }
}
