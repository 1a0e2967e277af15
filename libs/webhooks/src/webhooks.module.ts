import { Global, Module } from '@nestjs/common';
import { OUTBOUND_EVENTS } from '@app/kernel';
import { CreateWebhookEndpoint } from './application/create-endpoint/create-webhook-endpoint.use-case';
import { DeleteWebhookEndpoint } from './application/delete-endpoint/delete-webhook-endpoint.use-case';
import { DeliverWebhook } from './application/deliver-webhook/deliver-webhook.use-case';
import { EndpointTarget } from './application/endpoint-target';
import { GetReplyCallbackSigner } from './application/get-reply-callback-secret/get-reply-callback-secret.use-case';
import { GetWebhookEndpoint } from './application/get-endpoint/get-webhook-endpoint.use-case';
import { ListWebhookAttempts } from './application/list-endpoint-attempts/list-webhook-attempts.use-case';
import { ListWebhookEndpoints } from './application/list-endpoints/list-webhook-endpoints.use-case';
import { PublishOutboundEvent } from './application/publish-event/publish-outbound-event.use-case';
import { RecoverWebhookDeliveries } from './application/recover-deliveries/recover-webhook-deliveries.use-case';
import { RotateWebhookSecret } from './application/rotate-endpoint-secret/rotate-webhook-secret.use-case';
import { SendTestWebhook } from './application/send-test-event/send-test-webhook.use-case';
import { PurgeWebhookRecords } from './application/purge-webhook-records/purge-webhook-records.use-case';
import { ReceiveReply } from './application/receive-reply/receive-reply.use-case';
import { ReplyAddresses } from '@app/delivery';
import { UpdateWebhookEndpoint } from './application/update-endpoint/update-webhook-endpoint.use-case';

const useCases = [
  CreateWebhookEndpoint,
  ListWebhookEndpoints,
  GetWebhookEndpoint,
  UpdateWebhookEndpoint,
  DeleteWebhookEndpoint,
  RotateWebhookSecret,
  ListWebhookAttempts,
  SendTestWebhook,
  GetReplyCallbackSigner,
  PublishOutboundEvent,
  DeliverWebhook,
  RecoverWebhookDeliveries,
  ReceiveReply,
  PurgeWebhookRecords,
];

/**
 * Outbound webhooks, and the OutboundEvents port every context publishes through (global, so the
 * delivery, workflows and subscribers contexts receive it without importing this one). Repositories,
 * the queue and the WebhookSender are bound by the store, queue and providers modules.
 */
@Global()
@Module({
  providers: [...useCases, EndpointTarget, ReplyAddresses, { provide: OUTBOUND_EVENTS, useExisting: PublishOutboundEvent }],
  exports: [...useCases, OUTBOUND_EVENTS],
})
export class WebhooksModule {}
