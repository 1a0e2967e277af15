import { Provider } from '@nestjs/common';
import { WEBHOOK_DELIVERY_REPOSITORY, WEBHOOK_ENDPOINT_REPOSITORY } from '@app/webhooks';
import { SqlWebhookDeliveryRepository } from './sql-webhook-delivery.repository';
import { SqlWebhookEndpointRepository } from './sql-webhook-endpoint.repository';

export { SqlWebhookDeliveryRepository } from './sql-webhook-delivery.repository';
export { SqlWebhookEndpointRepository } from './sql-webhook-endpoint.repository';
// Repository adapters of the outbound webhooks context, bound to their port tokens.
export const sqlWebhooksProviders: Provider[] = [
  { provide: WEBHOOK_ENDPOINT_REPOSITORY, useClass: SqlWebhookEndpointRepository },
  { provide: WEBHOOK_DELIVERY_REPOSITORY, useClass: SqlWebhookDeliveryRepository },
];
