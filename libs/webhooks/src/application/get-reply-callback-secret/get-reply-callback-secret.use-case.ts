import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, newId } from '@app/kernel';
import { newSigningSecret } from '../../domain/standard-webhooks';
import { WebhookEndpoint } from '../../domain/webhook-endpoint';
import { WEBHOOK_ENDPOINT_REPOSITORY, WebhookEndpointRepository } from '../../ports/webhook-endpoint.repository.port';

/** The environment's reply-callback signer (made on first use): its secret signs every reply callback POST. */
@Injectable()
export class GetReplyCallbackSigner {
  constructor(
    @Inject(WEBHOOK_ENDPOINT_REPOSITORY) private readonly endpoints: WebhookEndpointRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute(scope: EnvironmentScope): Promise<WebhookEndpoint> {
    const now = this.clock.now();
    return this.endpoints.ensureReplyCallback({
      id: newId(now.getTime()),
      ...scope,
      kind: 'reply_callback',
      url: '',
      disabled: false,
      secrets: [{ secret: newSigningSecret() }],
      createdAt: now,
      updatedAt: now,
    });
  }
}
