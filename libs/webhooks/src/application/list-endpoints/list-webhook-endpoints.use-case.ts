import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, PageRequest } from '@app/kernel';
import { ListPage } from '../../ports/webhook-endpoint.repository.port';
import { WebhookEndpoint } from '../../domain/webhook-endpoint';
import { WEBHOOK_ENDPOINT_REPOSITORY, WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository.port';

@Injectable()
export class ListWebhookEndpoints {
  constructor(@Inject(WEBHOOK_ENDPOINT_REPOSITORY) private readonly endpoints: WebhookEndpointRepository) {}

  execute(command: { scope: EnvironmentScope } & PageRequest): Promise<ListPage<WebhookEndpoint>> {
    return this.endpoints.list(command.scope, { page: command.page, limit: command.limit });
  }
}
