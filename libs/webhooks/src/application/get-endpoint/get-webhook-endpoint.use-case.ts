import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { WebhookEndpointNotFoundError } from '../../domain/errors';
import { WebhookEndpoint } from '../../domain/webhook-endpoint';
import { WEBHOOK_ENDPOINT_REPOSITORY, WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository.port';

@Injectable()
export class GetWebhookEndpoint {
  constructor(@Inject(WEBHOOK_ENDPOINT_REPOSITORY) private readonly endpoints: WebhookEndpointRepository) {}

  async execute(command: { scope: EnvironmentScope; id: string }): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findById(command.scope, command.id);
    if (!endpoint || endpoint.kind !== 'endpoint') throw new WebhookEndpointNotFoundError(command.id);
    return endpoint;
  }
}
