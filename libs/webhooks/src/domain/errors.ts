import { NotFoundError, UnprocessableError } from '@app/kernel';

export class WebhookEndpointNotFoundError extends NotFoundError {
  constructor(id: string) {
    super('webhook_endpoint_not_found', `No webhook endpoint with id ${id} in this environment`, { endpointId: id });
  }
}

export class InvalidWebhookUrlError extends UnprocessableError {
  constructor(reason: string) {
    super('invalid_webhook_url', `url ${reason}`);
  }
}
