import { InvalidRequestError, NotFoundError } from '@app/kernel';

export class WebhookEndpointNotFoundError extends NotFoundError {
  constructor(id: string) {
    super('webhook_endpoint_not_found', `No webhook endpoint with id ${id} in this environment`, { endpointId: id });
  }
}

export class InvalidWebhookUrlError extends InvalidRequestError {
  constructor(reason: string) {
    super('invalid_webhook_url', `url ${reason}`);
  }
}
