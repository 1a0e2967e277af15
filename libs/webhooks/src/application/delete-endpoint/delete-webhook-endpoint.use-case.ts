import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { WebhookEndpointNotFoundError } from '../../domain/errors';
import { WEBHOOK_ENDPOINT_REPOSITORY, WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository.port';
import { GetWebhookEndpoint } from '../get-endpoint/get-webhook-endpoint.use-case';
import { PublishOutboundEvent } from '../publish-event/publish-outbound-event.use-case';

/** Deletes an endpoint; its pending deliveries are dropped at their next attempt. */
@Injectable()
export class DeleteWebhookEndpoint {
  constructor(
    @Inject(WEBHOOK_ENDPOINT_REPOSITORY) private readonly endpoints: WebhookEndpointRepository,
    private readonly get: GetWebhookEndpoint,
    private readonly publisher: PublishOutboundEvent,
  ) {}

  async execute(command: { scope: EnvironmentScope; id: string }): Promise<void> {
    await this.get.execute(command);
    if (!(await this.endpoints.delete(command.scope, command.id))) throw new WebhookEndpointNotFoundError(command.id);
    this.publisher.forget(command.scope);
  }
}
