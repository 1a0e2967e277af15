import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, OutboundEventType, newId } from '@app/kernel';
import { GetWebhookEndpoint } from '../get-endpoint/get-webhook-endpoint.use-case';
import { PublishOutboundEvent, eventBody, pendingDelivery } from '../publish-event/publish-outbound-event.use-case';

/**
 * Sends an example event of `eventType` to one endpoint through the same outbox, signing, retries
 * and attempts log as real events (a disabled endpoint drops it, as it drops every event).
 */
@Injectable()
export class SendTestWebhook {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly get: GetWebhookEndpoint,
    private readonly publisher: PublishOutboundEvent,
  ) {}

  async execute(command: { scope: EnvironmentScope; id: string; eventType: OutboundEventType }): Promise<{ webhookId: string }> {
    const endpoint = await this.get.execute(command);
    const now = this.clock.now();
    const webhookId = `msg_${newId(now.getTime())}`;
    const body = await eventBody(
      { type: command.eventType, object: { test: true, _id: newId(now.getTime()), _environmentId: command.scope.environmentId } },
      now,
    );
    await this.publisher.enqueue([pendingDelivery(command.scope, webhookId, endpoint.id, command.eventType, body, now)]);
    return { webhookId };
  }
}
