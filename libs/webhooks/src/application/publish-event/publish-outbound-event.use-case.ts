import { Inject, Injectable } from '@nestjs/common';
import {
  CLOCK,
  Clock,
  EnvironmentScope,
  JOB_QUEUE,
  JobQueue,
  OutboundEvent,
  OutboundEventType,
  OutboundEvents,
  TtlCache,
  deterministicId,
  newId,
} from '@app/kernel';
import { WebhookDelivery } from '../../domain/webhook-delivery';
import { WebhookEndpoint, takesEvent } from '../../domain/webhook-endpoint';
import { WEBHOOK_DELIVERY_REPOSITORY, WebhookDeliveryRepository } from '../../ports/webhook-delivery.repository.port';
import { WEBHOOK_ENDPOINT_REPOSITORY, WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository.port';
import { WEBHOOKS_QUEUE, webhookJob } from '../webhook-queue';

/** How long an environment's endpoint list is reused (every sent message publishes an event). */
const ENDPOINTS_TTL_MS = 2_000;

/** The body every endpoint receives (Novu's shape). */
export async function eventBody(event: OutboundEvent, timestamp: Date): Promise<string> {
  const data: Record<string, unknown> = { object: typeof event.object === 'function' ? await event.object() : event.object };
  if (event.previousObject) data.previousObject = event.previousObject;
  if (event.error) data.error = event.error;
  return JSON.stringify({ type: event.type, timestamp: timestamp.toISOString(), data });
}

/** An event's outbox row for one endpoint, its first attempt due now. */
export function pendingDelivery(
  scope: EnvironmentScope,
  id: string,
  endpointId: string,
  eventType: OutboundEventType,
  body: string,
  now: Date,
): WebhookDelivery {
  const { organizationId, environmentId } = scope;
  return { id, organizationId, environmentId, endpointId, eventType, body, status: 'pending', attempts: 0, nextAttemptAt: now, createdAt: now, updatedAt: now };
}

/**
 * The OutboundEvents port: one outbox row per endpoint that takes the event (its id the stable
 * `webhook-id`, derived from the event's key and the endpoint, so a republished event adds
 * nothing), then the first attempt on the webhooks queue. The rows are written before the queue
 * hears of them: a crash in between is left to RecoverWebhookDeliveries.
 */
@Injectable()
export class PublishOutboundEvent implements OutboundEvents {
  private readonly endpointsByEnvironment = new TtlCache<WebhookEndpoint[]>(ENDPOINTS_TTL_MS);

  constructor(
    @Inject(WEBHOOK_ENDPOINT_REPOSITORY) private readonly endpoints: WebhookEndpointRepository,
    @Inject(WEBHOOK_DELIVERY_REPOSITORY) private readonly deliveries: WebhookDeliveryRepository,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async publish(scope: EnvironmentScope, events: OutboundEvent | readonly OutboundEvent[]): Promise<void> {
    const enabled = await this.enabledEndpoints(scope);
    if (!enabled.length) return;
    const now = this.clock.now();
    const rows: WebhookDelivery[] = [];
    for (const event of ([] as OutboundEvent[]).concat(events)) {
      const endpoints = enabled.filter((endpoint) => takesEvent(endpoint, event.type));
      if (!endpoints.length) continue;
      const body = await eventBody(event, event.occurredAt ?? now);
      const eventId = event.key ? deterministicId('event', event.type, event.key) : newId(now.getTime());
      for (const endpoint of endpoints) rows.push(pendingDelivery(scope, `msg_${deterministicId(eventId, endpoint.id)}`, endpoint.id, event.type, body, now));
    }
    if (rows.length) await this.enqueue(rows);
  }

  /** Writes the rows and queues the first attempt of each new one. */
  async enqueue(deliveries: WebhookDelivery[]): Promise<void> {
    const inserted = await this.deliveries.insertMany(deliveries);
    if (inserted.length)
      await this.queue.addBulk(
        WEBHOOKS_QUEUE,
        inserted.map((id) => webhookJob(id, 1)),
      );
  }

  /** This process changed the environment's endpoints: read them afresh next time. */
  forget(scope: EnvironmentScope): void {
    this.endpointsByEnvironment.delete(scope.environmentId);
  }

  private enabledEndpoints(scope: EnvironmentScope): Promise<WebhookEndpoint[]> {
    return this.endpointsByEnvironment.getOrLoad(scope.environmentId, () => this.endpoints.listEnabled(scope));
  }
}
