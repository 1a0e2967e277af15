import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, JOB_QUEUE, JobQueue } from '@app/kernel';
import { WEBHOOK_DELIVERY_REPOSITORY, WebhookDeliveryRepository } from '../../ports/webhook-delivery.repository.port';
import { WEBHOOKS_QUEUE, webhookJob } from '../webhook-queue';

/**
 * The outbox is the record, the queue its schedule (as RecoverSteps for steps): pending deliveries
 * whose next attempt is overdue and that the queue does not hold (a crash between the row and the
 * add, a Redis that lost its data) are queued again.
 */
@Injectable()
export class RecoverWebhookDeliveries {
  constructor(
    @Inject(WEBHOOK_DELIVERY_REPOSITORY) private readonly deliveries: WebhookDeliveryRepository,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(limit: number, afterMs: number): Promise<number> {
    const overdue = await this.deliveries.findOverdue(new Date(this.clock.now().getTime() - afterMs), limit);
    let recovered = 0;
    for (const delivery of overdue) {
      const job = webhookJob(delivery.id, delivery.attempts + 1);
      const state = await this.queue.getJobState(WEBHOOKS_QUEUE, job.id);
      if (state === 'waiting' || state === 'active' || state === 'delayed') continue;
      if (state) await this.queue.remove(WEBHOOKS_QUEUE, job.id); // finished in the queue, not in the outbox
      await this.queue.add(WEBHOOKS_QUEUE, job);
      recovered++;
    }
    return recovered;
  }
}
