import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { CLOCK, Clock, JOB_QUEUE, JobQueue, newId } from '@app/kernel';
import { signedHeaders } from '../../domain/standard-webhooks';
import { WebhookDelivery } from '../../domain/webhook-delivery';
import { WebhookEndpoint, activeSecrets } from '../../domain/webhook-endpoint';
import { WEBHOOK_DELIVERY_REPOSITORY, WebhookDeliveryRepository } from '../../ports/webhook-delivery.repository.port';
import { WEBHOOK_ENDPOINT_REPOSITORY, WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository.port';
import { WEBHOOK_SENDER, WebhookSender } from '../../ports/webhook-sender.port';
import { WEBHOOKS_QUEUE, WebhookJobData, webhookJob } from '../webhook-queue';

const EXCERPT_CHARS = 500;

/**
 * One attempt of one outbox row: signed per Standard Webhooks (and under svix-* names) with the
 * endpoint's active secrets, POSTed under the outbound network rules, logged in the attempts log.
 * A non-2xx answer or no answer schedules the next attempt after the configured delay (a new
 * queue job per attempt, so the schedule is ours, not the queue's); the last failure ends the row,
 * and disables the endpoint when nothing it was sent succeeded since this event was published.
 * A queue job run twice (a crash after the POST) sends again with the same `webhook-id`, which is
 * what lets receivers deduplicate: at least once, never lost.
 */
@Injectable()
export class DeliverWebhook {
  private readonly logger = new Logger(DeliverWebhook.name);

  constructor(
    @Inject(WEBHOOK_DELIVERY_REPOSITORY) private readonly deliveries: WebhookDeliveryRepository,
    @Inject(WEBHOOK_ENDPOINT_REPOSITORY) private readonly endpoints: WebhookEndpointRepository,
    @Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(job: WebhookJobData): Promise<void> {
    const delivery = await this.deliveries.findById(job.deliveryId);
    if (!delivery || delivery.status !== 'pending') return;
    if (delivery.attempts >= job.attempt) return this.resumeSchedule(delivery);
    const attempt = delivery.attempts + 1;
    const scope = { organizationId: delivery.organizationId, environmentId: delivery.environmentId };
    const endpoint = await this.endpoints.findById(scope, delivery.endpointId);
    if (!endpoint || (endpoint.kind === 'endpoint' && endpoint.disabled)) return this.deliveries.drop(delivery.id, this.clock.now());

    const now = this.clock.now();
    const headers = signedHeaders(activeSecrets(endpoint, now), delivery.id, Math.floor(now.getTime() / 1000), delivery.body);
    const started = performance.now();
    const response = await this.sender.post(delivery.url ?? endpoint.url, headers, delivery.body, this.config.webhookTimeoutMs);
    const latencyMs = Math.round(performance.now() - started);
    const success = response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300;
    const error = success ? undefined : (response.error ?? `The endpoint answered ${response.statusCode}`);
    await this.deliveries.appendAttempt({
      id: newId(),
      organizationId: delivery.organizationId,
      environmentId: delivery.environmentId,
      endpointId: endpoint.id,
      deliveryId: delivery.id,
      eventType: delivery.eventType,
      attempt,
      ...(response.statusCode !== undefined ? { statusCode: response.statusCode } : {}),
      latencyMs,
      success,
      ...(error ? { error } : {}),
      ...(response.body ? { responseExcerpt: response.body.slice(0, EXCERPT_CHARS) } : {}),
      createdAt: this.clock.now(),
    });
    if (success) {
      await this.deliveries.recordAttempt(delivery.id, attempt, { status: 'delivered' }, this.clock.now());
      return;
    }
    const delayMs = this.config.webhookRetryDelaysMs[attempt - 1];
    if (delayMs !== undefined) {
      const nextAttemptAt = new Date(this.clock.now().getTime() + delayMs);
      if (await this.deliveries.recordAttempt(delivery.id, attempt, { status: 'pending', nextAttemptAt }, this.clock.now())) {
        await this.queue.add(WEBHOOKS_QUEUE, webhookJob(delivery.id, attempt + 1, delayMs));
      }
      return;
    }
    if (!(await this.deliveries.recordAttempt(delivery.id, attempt, { status: 'failed' }, this.clock.now()))) return;
    this.logger.warn(`Webhook ${delivery.id} (${delivery.eventType}) to endpoint ${endpoint.id} failed for good after ${attempt} attempts: ${error}`);
    if (endpoint.kind === 'endpoint') await this.disableIfFailing(endpoint, delivery, attempt);
  }

  /**
   * Every attempt of this event failed and nothing else sent to the endpoint succeeded since the
   * event was published (hours of failure with the default schedule): stop sending to it.
   */
  private async disableIfFailing(endpoint: WebhookEndpoint, delivery: WebhookDelivery, attempts: number): Promise<void> {
    if (await this.deliveries.succeededSince(endpoint.id, delivery.createdAt)) return;
    const reason = `Disabled after sustained failure: every one of ${attempts} attempts of webhook ${delivery.id} failed and no delivery to this endpoint has succeeded since ${delivery.createdAt.toISOString()}`;
    const scope = { organizationId: endpoint.organizationId, environmentId: endpoint.environmentId };
    const now = this.clock.now();
    if (!(await this.endpoints.update(scope, endpoint.id, { disabled: true, disabledReason: reason }, now))) return;
    await this.deliveries.appendAttempt({
      id: newId(),
      organizationId: endpoint.organizationId,
      environmentId: endpoint.environmentId,
      endpointId: endpoint.id,
      deliveryId: delivery.id,
      eventType: 'endpoint.disabled',
      attempt: attempts,
      success: false,
      error: reason,
      createdAt: now,
    });
    this.logger.warn(`Webhook endpoint ${endpoint.id} disabled: ${reason}`);
  }

  /** This attempt was recorded by an earlier run (which may have crashed before queueing the next): queue it again (a no-op if it landed). */
  private async resumeSchedule(delivery: WebhookDelivery): Promise<void> {
    const delayMs = Math.max(0, (delivery.nextAttemptAt?.getTime() ?? 0) - this.clock.now().getTime());
    await this.queue.add(WEBHOOKS_QUEUE, webhookJob(delivery.id, delivery.attempts + 1, delayMs));
  }
}
