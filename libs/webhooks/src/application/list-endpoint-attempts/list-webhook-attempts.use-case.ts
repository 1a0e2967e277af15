import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope, PageRequest } from '@app/kernel';
import { ListPage } from '../../ports/webhook-endpoint.repository.port';
import { WebhookAttempt } from '../../domain/webhook-delivery';
import { WEBHOOK_DELIVERY_REPOSITORY, WebhookDeliveryRepository } from '../../ports/webhook-delivery.repository.port';
import { GetWebhookEndpoint } from '../get-endpoint/get-webhook-endpoint.use-case';

@Injectable()
export class ListWebhookAttempts {
  constructor(
    @Inject(WEBHOOK_DELIVERY_REPOSITORY) private readonly deliveries: WebhookDeliveryRepository,
    private readonly get: GetWebhookEndpoint,
  ) {}

  async execute(command: { scope: EnvironmentScope; id: string } & PageRequest): Promise<ListPage<WebhookAttempt>> {
    await this.get.execute(command);
    return this.deliveries.listAttempts(command.scope, command.id, { page: command.page, limit: command.limit });
  }
}
