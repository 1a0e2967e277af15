import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, OutboundEventType, newId } from '@app/kernel';
import { newSigningSecret } from '../../domain/standard-webhooks';
import { WebhookEndpoint } from '../../domain/webhook-endpoint';
import { WEBHOOK_ENDPOINT_REPOSITORY, WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository.port';
import { EndpointTarget } from '../endpoint-target';
import { PublishOutboundEvent } from '../publish-event/publish-outbound-event.use-case';

export interface CreateWebhookEndpointCommand {
  scope: EnvironmentScope;
  url: string;
  description?: string;
  eventTypes?: OutboundEventType[];
  disabled?: boolean;
}

/** A new endpoint with a fresh `whsec_` secret, answered once (the only time it is shown, with rotation). */
@Injectable()
export class CreateWebhookEndpoint {
  constructor(
    @Inject(WEBHOOK_ENDPOINT_REPOSITORY) private readonly endpoints: WebhookEndpointRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly target: EndpointTarget,
    private readonly publisher: PublishOutboundEvent,
  ) {}

  async execute(command: CreateWebhookEndpointCommand): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    await this.target.check(command.url);
    const now = this.clock.now();
    const secret = newSigningSecret();
    const endpoint: WebhookEndpoint = {
      id: newId(now.getTime()),
      ...command.scope,
      kind: 'endpoint',
      url: command.url,
      ...(command.description !== undefined ? { description: command.description } : {}),
      ...(command.eventTypes ? { eventTypes: [...new Set(command.eventTypes)] } : {}),
      disabled: command.disabled ?? false,
      secrets: [{ secret }],
      createdAt: now,
      updatedAt: now,
    };
    await this.endpoints.insert(endpoint);
    this.publisher.forget(command.scope);
    return { endpoint, secret };
  }
}
