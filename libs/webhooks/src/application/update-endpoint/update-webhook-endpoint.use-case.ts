import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, OutboundEventType } from '@app/kernel';
import { WebhookEndpointNotFoundError } from '../../domain/errors';
import { WebhookEndpoint } from '../../domain/webhook-endpoint';
import { WEBHOOK_ENDPOINT_REPOSITORY, WebhookEndpointChanges, WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository.port';
import { EndpointTarget } from '../endpoint-target';
import { GetWebhookEndpoint } from '../get-endpoint/get-webhook-endpoint.use-case';
import { PublishOutboundEvent } from '../publish-event/publish-outbound-event.use-case';

export interface UpdateWebhookEndpointCommand {
  scope: EnvironmentScope;
  id: string;
  /** Fields left out stay as they are; null clears description and eventTypes (eventTypes null: every type). */
  changes: { url?: string; description?: string | null; eventTypes?: OutboundEventType[] | null; disabled?: boolean };
}

/** Changes an endpoint; enabling it again clears why it was disabled. */
@Injectable()
export class UpdateWebhookEndpoint {
  constructor(
    @Inject(WEBHOOK_ENDPOINT_REPOSITORY) private readonly endpoints: WebhookEndpointRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly get: GetWebhookEndpoint,
    private readonly target: EndpointTarget,
    private readonly publisher: PublishOutboundEvent,
  ) {}

  async execute({ scope, id, changes }: UpdateWebhookEndpointCommand): Promise<WebhookEndpoint> {
    await this.get.execute({ scope, id });
    if (changes.url !== undefined) await this.target.check(changes.url);
    const update: WebhookEndpointChanges = {
      ...(changes.url !== undefined ? { url: changes.url } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.eventTypes !== undefined ? { eventTypes: changes.eventTypes ? [...new Set(changes.eventTypes)] : null } : {}),
      ...(changes.disabled !== undefined ? { disabled: changes.disabled, disabledReason: null } : {}),
    };
    const updated = await this.endpoints.update(scope, id, update, this.clock.now());
    if (!updated) throw new WebhookEndpointNotFoundError(id);
    this.publisher.forget(scope);
    return updated;
  }
}
