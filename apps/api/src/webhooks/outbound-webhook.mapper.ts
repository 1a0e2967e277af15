import { WebhookAttempt, WebhookEndpoint } from '@app/webhooks';
import { WebhookAttemptResponseDto, WebhookEndpointResponseDto } from './outbound-webhook.dto';

export function toEndpointResponse(endpoint: WebhookEndpoint, secret?: string): WebhookEndpointResponseDto {
  return {
    _id: endpoint.id,
    _environmentId: endpoint.environmentId,
    url: endpoint.url,
    ...(endpoint.description !== undefined ? { description: endpoint.description } : {}),
    ...(endpoint.eventTypes ? { eventTypes: endpoint.eventTypes } : {}),
    disabled: endpoint.disabled,
    ...(endpoint.disabledReason ? { disabledReason: endpoint.disabledReason } : {}),
    ...(secret ? { secret } : {}),
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

export function toAttemptResponse(attempt: WebhookAttempt): WebhookAttemptResponseDto {
  return {
    _id: attempt.id,
    webhookId: attempt.deliveryId,
    event: attempt.eventType,
    attempt: attempt.attempt,
    ...(attempt.statusCode !== undefined ? { statusCode: attempt.statusCode } : {}),
    ...(attempt.latencyMs !== undefined ? { latencyMs: attempt.latencyMs } : {}),
    success: attempt.success,
    ...(attempt.error ? { error: attempt.error } : {}),
    ...(attempt.responseExcerpt ? { response: attempt.responseExcerpt } : {}),
    createdAt: attempt.createdAt.toISOString(),
  };
}
